"""Prices and totals."""

TAX_RATE = 0.2


def compute_total(prices: list[float], discount: float = 0.0) -> float:
    """Sum of the prices, less the discount, plus tax."""
    subtotal = sum(prices) - discount
    return round(subtotal * (1 + TAX_RATE), 2)


def unit_price(total: float, count: int) -> float:
    return total / count
