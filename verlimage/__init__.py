"""verl Ascend image build system: pins manifest, render, engine, smoke, bump."""
