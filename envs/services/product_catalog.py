"""Product catalog: products, variants and prices of an online store.

No product-catalog server is in ``compoworld_gym/data/mcp_servers.jsonl`` (HubSpot
CRM's ``products_*`` tools are CRM line-item templates without variants or
categories); the interface is designed the way Shopify's Admin product API
looks: products with a SKU, title, category (product type), price and an
active/archived status, variants with their own SKU and price, and a price
history kept on every price change.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Date, Id, Money, Sku
from compoworld_gym.envs.services._commerce import CURRENCY, MONEY_MAX, PRODUCTS, money
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound
from compoworld_gym.service import Record, Service, ServiceState, tool

Category = Literal["electronics", "furniture", "stationery", "accessories", "apparel", "other"]
_BLURB = {"electronics": "{name} for a productive desk setup; one-year warranty.",
          "furniture": "{name} built for all-day comfort; ships flat-packed.",
          "stationery": "{name} for notes, plans and sketches.",
          "accessories": "{name}: the small upgrade every workspace needs."}
_VARIANT_OPTIONS = {"electronics": ("Black", "White"), "furniture": ("Oak", "Walnut"),
                    "stationery": ("Blue", "Black"), "accessories": ("Grey", "Navy")}


class PriceChange(Record):
    """One price change of a product or variant."""

    sku: Sku = Field(description="SKU whose price changed.")
    old_price: Money = Field(description="Price before the change (USD).")
    new_price: Money = Field(description="Price after the change (USD).")
    changed_on: Date = Field(description="Date of the change.")


class Variant(Record):
    """A purchasable variant of a product (e.g. a colour)."""

    sku: Sku = Field(description="Variant SKU, unique across the catalog.")
    option: str = Field(description="Variant option value, e.g. 'Walnut'.")
    price: Money = Field(description="Variant unit price (USD).")
    active: bool = Field(default=True, description="False once the variant is discontinued.")


class Product(Record):
    """A catalog product."""

    id: Id("product") = Field(description="Product id, e.g. PRD-0001.")
    sku: Sku = Field(description="Base SKU, unique across the catalog.")
    name: str = Field(description="Product title.")
    description: str = Field(default="", description="Marketing description.")
    category: Category = Field(description="Product type.")
    price: Money = Field(description="Base unit price (USD).")
    currency: str = Field(default=CURRENCY, description="ISO 4217 currency of the prices.")
    active: bool = Field(default=True, description="False when archived (not for sale).")
    created_on: Date = Field(description="Date the product was created.")
    variants: list[Variant] = Field(default_factory=list, description="Variants, creation order.")
    price_history: list[PriceChange] = Field(default_factory=list, description="Price changes, oldest first.")


class CatalogState(ServiceState):
    """All products of the catalog."""

    products: dict[str, Product] = Field(default_factory=dict, description="Products by id.")


class ProductCatalog(Service):
    """Products with SKUs, categories, prices and variants."""

    name = "product_catalog"
    description = "Store product catalog: products, SKUs, categories, prices, variants and price history."
    domain = "commerce"
    spec_source = None
    State = CatalogState

    # ---------------------------------------------------------------- helpers
    def _sku_owner(self, sku: str) -> tuple[Product, Optional[Variant]] | None:
        key = sku.upper()
        for p in self.state.products.values():
            if p.sku == key:
                return p, None
            for v in p.variants:
                if v.sku == key:
                    return p, v
        return None

    def _require_free_sku(self, sku: str) -> None:
        if self._sku_owner(sku) is not None:
            raise Conflict(f"SKU {sku.upper()!r} is already used in the catalog; choose another SKU.")

    @staticmethod
    def _require_active(p: Product) -> None:
        if not p.active:
            raise Conflict(f"product {p.id} is archived; call set_product_active with active=true first.")

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Product])
    def list_products(self, category: Optional[Category] = None, active: Optional[bool] = None,
                      limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List products, optionally by category or active status (without price history).

        Args:
            category: only products of this category.
            active: true for products on sale, false for archived ones.
            limit: maximum number of products to return (1-200).
        """
        out = [p.model_dump(exclude={"price_history"}) for p in self.state.products.values()
               if (category is None or p.category == category) and (active is None or p.active == active)]
        return out[:limit]

    @tool(read_only=True, returns=list[Product])
    def search_products(self, query: Optional[str] = None,
                        min_price: Optional[Money] = Field(default=None, ge=0, le=MONEY_MAX),
                        max_price: Optional[Money] = Field(default=None, ge=0, le=MONEY_MAX),
                        limit: int = Field(default=20, ge=1, le=200)) -> list[dict]:
        """Search products by text in name, description or SKU, and by base price range.

        Args:
            query: case-insensitive text to find in name, description or SKU.
            min_price: only products priced at least this much (USD).
            max_price: only products priced at most this much (USD).
            limit: maximum number of products to return (1-200).
        """
        q = query.lower() if query else None
        out = []
        for p in self.state.products.values():
            if q and q not in p.name.lower() and q not in p.description.lower() and q not in p.sku.lower():
                continue
            if (min_price is not None and p.price < min_price) or (max_price is not None and p.price > max_price):
                continue
            out.append(p.model_dump(exclude={"price_history"}))
        return out[:limit]

    @tool(read_only=True, returns=Product)
    def get_product(self, product_id: Id("product")) -> dict:
        """Get one product with its variants and price history.

        Args:
            product_id: the product id, e.g. PRD-0001.
        """
        return self.lookup(self.state.products, product_id, "product").model_dump()

    @tool(read_only=True, returns=Product)
    def get_product_by_sku(self, sku: Sku) -> dict:
        """Find the product owning a base or variant SKU; returns the product and the matched variant.

        Args:
            sku: a base or variant SKU, e.g. KB-MECH-01 (case-insensitive).
        """
        found = self._sku_owner(sku)
        if found is None:
            raise NotFound(f"SKU {sku!r} not found; call search_products to find valid SKUs.")
        p, v = found
        return {"product": p.model_dump(exclude={"price_history"}),
                "variant": v.model_dump() if v else None,
                "unit_price": v.price if v else p.price}

    @tool(read_only=True)
    def list_product_categories(self) -> list[dict]:
        """List categories with their number of active products."""
        counts: dict[str, int] = {}
        for p in self.state.products.values():
            counts.setdefault(p.category, 0)
            counts[p.category] += int(p.active)
        return [{"category": c, "active_products": n} for c, n in sorted(counts.items())]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Product)
    def create_product(self, sku: Sku = Field(min_length=3, max_length=32, pattern=r"^[A-Za-z0-9-]+$"),
                       name: str = Field(min_length=1, max_length=120),
                       price: Money = Field(ge=0.01, le=1_000_000),
                       category: Category = "other", description: str = "") -> dict:
        """Create an active product. The SKU must be unused (409 otherwise).

        Args:
            sku: base SKU (letters, digits, dashes; stored upper-case).
            name: product title.
            price: unit price in USD (rounded to cents).
            category: product type.
            description: marketing description.
        """
        self._require_free_sku(sku)
        p = Product(id=self.new_id("PRD"), sku=sku.upper(), name=name, description=description,
                    category=category, price=money(price), created_on=self.today)
        self.state.products[p.id] = p
        return p.model_dump()

    @tool(read_only=False, returns=Product)
    def update_product(self, product_id: Id("product"), name: Optional[str] = Field(None, min_length=1),
                       description: Optional[str] = None, category: Optional[Category] = None) -> dict:
        """Change a product's name, description or category (use update_price for prices).

        Args:
            product_id: the product to change.
            name: new title.
            description: new description.
            category: new category.
        """
        p = self.lookup(self.state.products, product_id, "product")
        if name is None and description is None and category is None:
            raise InvalidArgument("nothing to update: give at least one of name, description, category.")
        if name is not None:
            p.name = name
        if description is not None:
            p.description = description
        if category is not None:
            p.category = category
        return p.model_dump(exclude={"price_history"})

    @tool(read_only=False, returns=PriceChange)
    def update_price(self, sku: Sku, price: Money = Field(ge=0.01, le=1_000_000)) -> dict:
        """Set the price of a base or variant SKU and record the change in the price history.

        Archived products cannot be repriced (409); a price equal to the current one is a 409.

        Args:
            sku: the base or variant SKU to reprice.
            price: the new unit price in USD (rounded to cents).
        """
        found = self._sku_owner(sku)
        if found is None:
            raise NotFound(f"SKU {sku!r} not found; call search_products to find valid SKUs.")
        p, v = found
        self._require_active(p)
        target = v if v is not None else p
        new = money(price)
        if new == target.price:
            raise Conflict(f"SKU {sku.upper()} already costs {new:.2f}; nothing changed.")
        change = PriceChange(sku=sku.upper(), old_price=target.price, new_price=new, changed_on=self.today)
        target.price = new
        p.price_history.append(change)
        return {"product_id": p.id, **change.model_dump()}

    @tool(read_only=False, idempotent=True, returns=Product)
    def set_product_active(self, product_id: Id("product"), active: bool) -> dict:
        """Archive (active=false) or re-activate (active=true) a product.

        Args:
            product_id: the product to change.
            active: true to put on sale, false to archive.
        """
        p = self.lookup(self.state.products, product_id, "product")
        p.active = active
        return p.model_dump(exclude={"price_history"})

    @tool(read_only=False, returns=Variant)
    def create_variant(self, product_id: Id("product"),
                       sku: Sku = Field(min_length=3, max_length=40, pattern=r"^[A-Za-z0-9-]+$"),
                       option: str = Field(min_length=1, max_length=60),
                       price: Optional[Money] = Field(None, ge=0.01, le=1_000_000)) -> dict:
        """Add a variant with its own SKU to an active product.

        Args:
            product_id: the product to extend.
            sku: the new variant SKU (must be unused).
            option: the option value, e.g. 'Walnut' or 'Large'.
            price: the variant price in USD; defaults to the product's price.
        """
        p = self.lookup(self.state.products, product_id, "product")
        self._require_active(p)
        self._require_free_sku(sku)
        if any(v.option.lower() == option.lower() for v in p.variants):
            raise Conflict(f"product {p.id} already has a variant {option!r}.")
        v = Variant(sku=sku.upper(), option=option, price=money(price) if price is not None else p.price)
        p.variants.append(v)
        return {"product_id": p.id, **v.model_dump()}

    @tool(read_only=False, returns=Variant)
    def discontinue_variant(self, sku: Sku) -> dict:
        """Mark a variant as discontinued (inactive). Base SKUs are archived with set_product_active.

        Args:
            sku: the variant SKU.
        """
        found = self._sku_owner(sku)
        if found is None or found[1] is None:
            raise NotFound(f"variant SKU {sku!r} not found; call get_product to list variants.")
        p, v = found
        if not v.active:
            raise Conflict(f"variant {v.sku} is already discontinued.")
        v.active = False
        return {"product_id": p.id, **v.model_dump()}

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> CatalogState:
        state = CatalogState()
        for i, item in enumerate(PRODUCTS, start=1):
            pid = f"PRD-{i:04d}"
            p = Product(id=pid, sku=item.sku, name=item.name, category=item.category, price=item.price,
                        description=_BLURB[item.category].format(name=item.name), created_on=today - dt.timedelta(days=400 - 20 * i))
            if i % 3 == 1:
                for option in _VARIANT_OPTIONS[item.category]:
                    p.variants.append(Variant(sku=f"{item.sku}-{option[:3].upper()}", option=option, price=item.price))
            if rng.random() < 0.3:
                old = money(item.price * 1.1)
                p.price_history.append(PriceChange(sku=item.sku, old_price=old, new_price=item.price,
                                                   changed_on=today - dt.timedelta(days=rng.randint(5, 60))))
            state.products[pid] = p
        # One archived seasonal product (not in the shared book, so no order refers to it).
        state.products["PRD-0015"] = Product(
            id="PRD-0015", sku="CAL-2025-15", name="2025 Wall Calendar", category="stationery", price=12.0,
            description="Last year's wall calendar.", active=False, created_on=today - dt.timedelta(days=420))
        state.counters["PRD"] = 16
        return state
