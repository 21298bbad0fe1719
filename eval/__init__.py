"""The measured evaluation (`make eval`): a task suite judged by its effects on a real X desktop."""
