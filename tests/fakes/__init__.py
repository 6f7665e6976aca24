"""Test doubles importable by child processes (isolated workers, Dask workers, subprocesses)."""
