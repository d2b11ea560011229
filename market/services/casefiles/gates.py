"""A transfer's approval is its final approval at closing (ADM-8, ADM-9, ADM-12, ADM-4):
where the ADM rules are in force on the approval's date, it needs the sale's exhibits,
every fee of the transfer and of the TECH application the certificate came from paid,
that application valued by Taxation, the seller's valid tax clearance certificate, and
for BRRAG the Board's approval in effect, covering the sale."""

from __future__ import annotations

from datetime import date

from market.adapters.repositories.casefiles import closed_sales_of
from market.domain.casefile_errors import StepOutOfOrderError
from market.domain.commands.casefiles import InvoiceFee
from market.domain.model import Certificate, Transfer
from market.domain.model.case_file import TransferOnFile
from market.domain.programs import Program
from market.domain.rules import adm_board, adm_checklist, adm_fees
from market.domain.rulesets import Ruleset
from market.services.casefiles import board_actions, checklists, clearances, fees
from market.services.kernel.actor import Actor
from market.services.kernel.clock import today
from market.services.kernel.reads import Source, repositories
from market.services.kernel.uow import AbstractUnitOfWork


def check_final_approval(
    uow: AbstractUnitOfWork, transfer: Transfer, cert: Certificate, ruleset: Ruleset, on: date
) -> None:
    if not ruleset.adm_in_force(on):
        return
    program = cert.program
    on_file = TransferOnFile(transfer.id, program.value, transfer.status.value, ruleset.name)
    items = checklists.transfer_items(uow, on_file, ruleset)
    adm_checklist.require(items, (adm_checklist.FINAL,), "Final approval")
    subjects = [transfer.id]
    app = uow.tech_applications.of_certificate(cert.root_id or cert.id)
    if program is Program.TECH and app is not None:
        # ADM-8 binds an application its steps began on; one they never did (allocated
        # before them, or imported) is not held to a valuation it could never get.
        case = uow.tech_case_files.load(str(app["id"]))
        if case is not None and case["tax_certificate_number"] is None:
            raise StepOutOfOrderError(
                "Final approval follows Taxation's valuation of the TECH application (ADM-8).",
                {"application_id": app["id"], "needs": "tax_certificate"},
            )
        subjects.append(str(app["id"]))
    if program is Program.UTH and transfer.seller_party_id == cert.original_holder_party_id:
        subjects.append(cert.root_id or cert.id)  # ADM-3: the award's fees
    fees.require_paid(uow, subjects, "Final approval")
    if adm_checklist.FINAL in ruleset.adm_clearance_steps:
        clearances.require_valid(uow, transfer.seller_party_id, program.value, on, ruleset)
    if program is Program.BRRAG:
        check_board_approval(uow, transfer, ruleset, on)


def check_board_approval(source: Source, transfer: Transfer, ruleset: Ruleset, on: date) -> str:
    """ADM-9: the Board approval this sale draws on (`adm_board`): the seller's approvals
    in submission order, after its BRRAG sales approved since the ADM rules came into
    force."""
    seller = transfer.seller_party_id
    repos = repositories(source)
    approvals = []
    for action in repos.board_actions.of_party(seller):
        if action["decision"] != "approve":
            continue
        effective = board_actions.view(action, ruleset, on)["takes_effect_on"]
        approvals.append(
            adm_board.Approval(
                action["id"],
                action["amount_cents"],
                date.fromisoformat(effective) if effective else None,
            )
        )
    since = ruleset.adm_in_force_from or on
    approved = repos.transfers.where(seller_party_id=seller, program="BRRAG", status="approved")
    sold = sorted(
        (
            x
            for x in closed_sales_of(approved)
            if x.exchange_date >= since and x.transfer_id != transfer.id
        ),
        key=lambda x: (x.exchange_date, x.decided_seq),
    )
    sales = [adm_board.Sale(x.amount_cents, x.exchange_date) for x in sold]
    return adm_board.check_sale(approvals, sales, transfer.amount_cents, on)


def invoice_transfer_fee(
    uow: AbstractUnitOfWork, actor: Actor, transfer_id: str, cert: Certificate, ruleset: Ruleset
) -> None:
    """ADM-3: a UTH tax credit transfer certificate application carries $2,500, invoiced
    to the seller when the transfer is proposed; its final approval waits until paid."""
    if cert.program is Program.UTH and ruleset.adm_in_force(today()):
        bill = adm_fees.uth_flat_fee(adm_fees.UTH_TRANSFER, ruleset)
        fees.invoice(uow, actor, InvoiceFee(cert.holder_party_id, transfer_id, bill), ruleset)
