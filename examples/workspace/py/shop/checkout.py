from shop.pricing import compute_total, unit_price


def receipt(prices: list[float]) -> str:
    total = compute_total(prices)
    return f"Total: {total}"


def average(prices: list[float]) -> float:
    return unit_price(compute_total(prices), len(prices))


# A deliberate error: compute_total returns a float, not a str.
label: str = compute_total([1.0, 2.0])
