"""Applying a credit to a return from the holder's desk (`POST /buyer/returns`): the API's
CreditApplicationIn checks the fields, with PT-2's section 40 figures (the entity income,
every source of its category, the other categories' nets) or a §40 cap; the review runs
the service's own rules in a unit of work that is never committed (confirm.rehearsed), so it
shows what is already applied to that return (counted with the other credits), what will
be applied, which limit binds and what carries forward; only the confirmation writes."""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, request, url_for
from flask.typing import ResponseReturnValue

from market.domain.errors import DomainError
from market.services.certificates import returns
from market.services.kernel import lookups, runner
from market.services.kernel.uow import ReadOnly
from market.validation import CreditApplicationIn
from market.validation.error_codes import status_of
from market.web import confirm, forms
from market.web.base import actor, bp, engine, roles_required, ruleset
from market.web.buyer_pages import limit_in_words, render_holdings
from market.web.fields import Fields

FIELDS = {
    "certificate_id": "certificate_id",
    "tax_type": "tax_type",
    "tax_year": "tax_year",
    "liability_cents": "liability",
    "other_credits_cents": "other_credits",
    "amount_cents": "amount",
    "cap40_cents": "cap40",
    "section_40": "s40_categories",
}
S40 = ("s40_entity_income", "s40_categories", "s40_other_categories")
CARRIED = ("certificate_id", "tax_type", "tax_year", "liability", "other_credits", "amount")
CARRIED_ALL = (*CARRIED, "cap40", *S40)


def signed_cents(raw: str, name: str, label: str) -> int:
    """Dollars that may be negative (`-1,250.00`): a loss is an amount here."""
    text = raw.strip().replace("\u2212", "-")
    negative = text.startswith("-")
    value = forms.required_cents({name: text.lstrip("-")}, name, label)
    return -value if negative else value


def _lines(f: Fields, name: str, label: str) -> list[int] | None:
    rows = [r for r in (f.form.get(name) or "").splitlines() if r.strip()]
    return f.read(name, lambda: [signed_cents(r, name, label) for r in rows])


def section_40(f: Fields) -> dict[str, Any] | None:
    """PT-2's figures from the form, or None when none is given."""
    if not any((f.form.get(k) or "").strip() for k in S40):
        return None
    income = f.read(
        "s40_entity_income",
        lambda: signed_cents(
            f.form.get("s40_entity_income") or "", "s40_entity_income", "Your income from it"
        ),
    )
    categories = _lines(f, "s40_categories", "Each amount of the category")
    others = _lines(f, "s40_other_categories", "Each other category's net")
    if categories == [] and "s40_categories" not in f.errors:
        f.errors["s40_categories"] = "Give every source's amount in the category, one a line."
    if income is None or not categories or others is None:
        return None
    return {
        "entity_income_cents": income,
        "category_amounts_cents": categories,
        "other_categories_net_cents": others,
    }


def _read(f: Fields) -> returns.NewCreditApplication | None:
    data = {
        "certificate_id": f.text("certificate_id"),
        "tax_type": f.text("tax_type"),
        "tax_year": f.integer("tax_year", "The tax year"),
        "liability_cents": f.cents("liability", "The tax liability"),
        "other_credits_cents": f.cents("other_credits", "Other credits", required=False),
        "amount_cents": f.cents("amount", "The amount to apply"),
        # PT-2: every GIT use is limited by the §40 ratio: a §40 cap, or its figures.
        "cap40_cents": f.cents("cap40", "The §40 cap", required=False),
        "section_40": section_40(f),
    }
    loaded = f.load(CreditApplicationIn(), data, FIELDS)
    if not f.ok or loaded is None:
        return None
    return returns.NewCreditApplication(**loaded)


def _review(
    new: returns.NewCreditApplication, result: returns.CreditApplicationRecord
) -> ResponseReturnValue:
    limits = result["limits"]
    with ReadOnly(engine()) as conn:
        number = lookups.numbers_of(conn, [new.certificate_id]).get(new.certificate_id, "")
    lines = [
        ("Certificate", number),
        ("Return", f"{new.tax_year} {new.tax_type}"),
        ("Tax liability before credits", forms.dollars(new.liability_cents)),
        ("Other credits you declared", forms.dollars(new.other_credits_cents)),
        (
            "Already applied to this return here (counted as other credits)",
            forms.dollars(int(limits["ledger_other_credits_cents"])),
        ),
    ]
    cap40 = limits.get("cap40_cents")
    if cap40 is not None:
        lines.append(("§40 cap (PT-2)", forms.dollars(cap40)))
    lines += [
        ("You asked to apply", forms.dollars(new.amount_cents)),
        ("Will be applied", forms.dollars(result["applied_cents"])),
        ("Limited by", limit_in_words(result["limited_by"])),
        ("Carries forward", forms.dollars(result["carried_forward_cents"])),
    ]
    return confirm.review(
        title="Apply a credit to a return",
        action=url_for("pages.apply_credit"),
        lines=lines,
        carry={k: request.form.get(k, "") for k in CARRIED_ALL},
        button="Confirm: apply the credit",
        back=url_for("pages.buyer") + "#apply",
        warning="Applying records a CREDIT_APPLIED event and takes the amount from the "
        "certificate's balance; it cannot be undone.",
        danger=False,
    )


@bp.post("/buyer/returns", endpoint="apply_credit")
@roles_required("participant")
def apply_credit() -> ResponseReturnValue:
    who, rules, f = actor(), ruleset(), Fields(request.form)
    new = _read(f)
    if new is None:
        return render_holdings(f.refuse())
    if not confirm.confirmed():
        try:
            result = runner.rehearse(
                engine(), lambda uow: returns.apply_to_return(uow, who, rules, new)
            )
        except DomainError as e:
            if e.code == "section_40_figures_required":
                f.errors["s40_entity_income"] = e.message
                return render_holdings(f.refuse())
            flash(e.message, "error")
            return render_holdings(status_of(e))
        return _review(new, result)
    ok, result, status = forms.attempt(
        lambda: runner.run(engine(), lambda uow: returns.apply_to_return(uow, who, rules, new))
    )
    if not ok:
        return render_holdings(status)
    earlier = int(result["limits"]["ledger_other_credits_cents"])
    flash(
        f"Applied {forms.dollars(result['applied_cents'])} to the {result['tax_year']} "
        f"{result['tax_type']} return, limited by {limit_in_words(result['limited_by'])}; "
        f"{forms.dollars(result['carried_forward_cents'])} carries forward"
        + (
            f" ({forms.dollars(earlier)} already applied to that return counted)."
            if earlier
            else "."
        ),
        "success",
    )
    return redirect(url_for("pages.buyer"))
