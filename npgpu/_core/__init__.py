"""The device array and what it needs: dtypes, layouts, copies, transfers."""
