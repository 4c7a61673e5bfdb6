"""What a change does: bump pins, find affected images, lint pin reasons, write the PR body,
list outdated pins, check patches against their upstream."""
