"""Stand-ins for the hardware: fake `machine` pins and buses, and models of the chips."""
