"""Records of the gift cards service (Square Gift Cards API style).

Square's ``GiftCard`` (``id``, ``type``, ``gan_source``, ``state``,
``balance_money``, ``gan``, ``created_at``, ``customer_ids``), its
``GiftCardActivity`` (``id``, ``type``, ``gift_card_id``, ``gift_card_gan``,
``gift_card_balance_money``, ``created_at`` and the type's details object) and
the Customers API's ``Customer`` (``given_name``, ``family_name``,
``email_address``), snake_cased. Money is in dollars (Square's
``amount_money.amount`` is in cents); an activity's ``*_activity_details`` are
flattened onto the activity (``amount_money``, ``reason``, ``order_id``,
``reference_id``, ``payment_id``, ``redeem_activity_id``).
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import DateTime, Email, Id, Money, PersonName
from compoworld_gym.service import Record, ServiceState

GiftCardType = Literal["DIGITAL", "PHYSICAL"]
GiftCardState = Literal["PENDING", "ACTIVE", "DEACTIVATED", "BLOCKED"]
GanSource = Literal["SQUARE", "OTHER"]
ActivityType = Literal["ACTIVATE", "LOAD", "REDEEM", "CLEAR_BALANCE", "DEACTIVATE", "BLOCK", "UNBLOCK", "REFUND",
                       "ADJUST_INCREMENT", "ADJUST_DECREMENT"]
ClearReason = Literal["SUSPICIOUS_ACTIVITY", "REUSE_GIFTCARD", "UNKNOWN_REASON"]
DeactivateReason = Literal["SUSPICIOUS_ACTIVITY", "UNKNOWN_REASON", "CHARGEBACK_DEACTIVATE"]
IncrementReason = Literal["COMPLIMENTARY", "SUPPORT_ISSUE", "TRANSACTION_VOIDED"]
DecrementReason = Literal["SUSPICIOUS_ACTIVITY", "BALANCE_ACCIDENTALLY_INCREASED", "SUPPORT_ISSUE",
                          "PURCHASE_WAS_REFUNDED"]
#: Square's maximum gift card balance in the US (USD).
MAX_BALANCE = 2000.0
#: The seller's one location (Square's ``location_id``).
LOCATION_ID = "L-DESKFORGE-MAIN"


class SquareCustomer(Record):
    """A customer profile (Square Customers API), the store customer under the same email."""

    id: Id("customer") = Field(description="Square customer id, e.g. CUS-0001.")
    given_name: str = Field(description="First name.")
    family_name: str = Field(description="Last name.")
    name: PersonName = Field(description="Full name.")
    email_address: Email = Field(description="The customer's email address (the store customer's).")
    created_at: DateTime = Field(description="When the profile was created.")


class GiftCard(Record):
    """A gift card (Square ``GiftCard``): a GAN, a state and a balance."""

    id: Id("gift_card") = Field(description="Gift card id, e.g. GC-0001.")
    type: GiftCardType = Field(description="DIGITAL or PHYSICAL.")
    gan_source: GanSource = Field(description="SQUARE (generated) or OTHER (a custom GAN).")
    gan: str = Field(description="The gift card account number printed on or sent with the card.")
    state: GiftCardState = Field(description="PENDING until activated, then ACTIVE, BLOCKED or DEACTIVATED (final).")
    balance_money: Money = Field(ge=0, description="Current balance in USD.")
    currency: Literal["USD"] = Field(default="USD", description="Balance currency.")
    created_at: DateTime = Field(description="When the card was created.")
    customer_ids: list[Id("customer")] = Field(default_factory=list, description="Customers linked to the card.")
    customer_emails: list[Email] = Field(default_factory=list,
                                         description="Email addresses of the linked customers, in the same order.")


class GiftCardActivity(Record):
    """One gift card activity (Square ``GiftCardActivity``); activities are append-only."""

    id: Id("gift_card_activity") = Field(description="Activity id, e.g. GCA-0001.")
    type: ActivityType = Field(description="What happened to the card.")
    location_id: str = Field(default=LOCATION_ID, description="The seller location where it happened.")
    gift_card_id: Id("gift_card") = Field(description="The card.")
    gift_card_gan: str = Field(description="The card's GAN.")
    gift_card_balance_money: Money = Field(ge=0, description="The card's balance after the activity (USD).")
    amount_money: Optional[Money] = Field(default=None, description="Amount added or taken, for money activities.")
    reason: Optional[str] = Field(default=None, description="Square reason code (clear, deactivate, block, adjust).")
    order_id: Optional[Id("order")] = Field(default=None, description="Store order the activity belongs to (the "
                                                                     "order bought with or refunded onto the card).")
    reference_id: Optional[str] = Field(default=None, description="Seller reference, e.g. a case or return id.")
    payment_id: Optional[Id("payment")] = Field(default=None, description="Payment redeemed by, for REDEEM.")
    redeem_activity_id: Optional[Id("gift_card_activity")] = Field(
        default=None, description="The REDEEM activity a REFUND gives money back from.")
    created_at: DateTime = Field(description="When it happened.")


class GiftCardsState(ServiceState):
    """Customers, gift cards and their activities."""

    customers: dict[str, SquareCustomer] = Field(default_factory=dict, description="Customers by id.")
    gift_cards: dict[str, GiftCard] = Field(default_factory=dict, description="Gift cards by id.")
    activities: dict[str, GiftCardActivity] = Field(default_factory=dict, description="Activities by id.")
