"""Voice: offline speech recognition, the wake gate and the listening thread (issue 6)."""
