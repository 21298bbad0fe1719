"""AnovaX benchmarks: each ``bench_*.py`` module prints markdown tables; ``python -m benchmarks`` runs them all."""
