"""The host an image is built on or run on: what it holds (doctor) and how a container reaches its
Ascend devices (passthrough). Both read the host through one root path, so tests run them against
fake host trees."""
