"""Smoke tests shipped into every image and run there by `python build.py smoke IMAGE`.

Run inside an image: ``python -m smoke_tests`` (see smoke_tests/__main__.py).
"""
