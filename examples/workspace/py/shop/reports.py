from shop.pricing import compute_total


def daily(orders: list[list[float]]) -> list[float]:
    return [compute_total(o) for o in orders]
