"""Run the in-image smoke suite from the host, keep its artifacts, and judge it."""
