"""Commands for bumping pins and CI."""
