"""Timers and reminders: reading spans and clock times (when), the records (model), the file (store)
and the app-owned thread that fires them (service)."""
