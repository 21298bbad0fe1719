"""Loopback fakes of the services AnovaX talks to (Gemini, ...), for tests."""
