"""Generated files: images/<name>/{Dockerfile*,pins*.json} and the README's tables."""
