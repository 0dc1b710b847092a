"""Santa Fe (Alan R. Moon): rails across the American West (rulings SF-M1 … SF-13)."""
