"""The laptop simulator. For now a terminal table; the device simulator follows (issue 5)."""
