# A sample of a documented crash form, not a capture: see crash_like_samples.md
