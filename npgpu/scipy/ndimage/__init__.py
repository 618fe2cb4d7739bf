"""scipy.ndimage on npgpu arrays: filters, interpolation, morphology and measurements as
generated kernels (``npgpu.scipy.ndimage``)."""
# each module below lists its public names in __all__
