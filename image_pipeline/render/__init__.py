"""Generated files: images/<name>/{Dockerfile*,pins*.json} and the tables of README.md and docs/."""
