"""Helpers this repository ships into every image (on sys.path through verl_image.pth)."""
