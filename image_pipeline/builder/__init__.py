"""From a lock and the repository to a smoke-tested, promoted image on a real Docker Engine."""
