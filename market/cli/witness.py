"""`flask --app market witness serve|vkey`: run a witness (C2SP tlog-witness) with its own
Ed25519 key, or print its verifier key (PRODUCT.md 9.3)."""

from __future__ import annotations

from pathlib import Path

import click

from market.adapters.signing import KeyFileError, Signer, load_signer
from market.adapters.witness_http import make_server
from market.adapters.witness_state import WitnessState
from market.domain.checkpoint_note import NoteError
from market.services.trust.witness_server import Witness, cosigner_vkey, log_keys


@click.group("witness")
def witness() -> None:
    """A witness that cosigns this ledger's checkpoints (C2SP tlog-witness)."""


def _signer(name: str, key_file: Path) -> Signer:
    try:
        return load_signer(key_file, name, create=True)  # made once, mode 0600
    except KeyFileError as e:
        raise click.ClickException(str(e)) from e


NAME = click.option("--name", required=True, help="The witness's key name, e.g. tax.nj.gov/w1.")
KEY = click.option(
    "--key-file",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Its Ed25519 private key (PEM); made (mode 0600) if missing.",
)


@witness.command("vkey")
@NAME
@KEY
def vkey(name: str, key_file: Path) -> None:
    """Print the witness's C2SP verifier key (type 0x04, cosignature/v1)."""
    click.echo(cosigner_vkey(_signer(name, key_file)))


@witness.command("serve")
@NAME
@KEY
@click.option("--log-key", "log_key", multiple=True, required=True, help="A log's verifier key.")
@click.option("--port", type=int, default=7380, show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option(
    "--state",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Where the latest cosigned checkpoint of each log is kept.",
)
def serve(
    name: str, key_file: Path, log_key: tuple[str, ...], port: int, host: str, state: Path
) -> None:
    """Answer POST /add-checkpoint until stopped."""
    try:
        keys = log_keys(list(log_key))
    except NoteError as e:
        raise click.BadParameter(str(e), param_hint="--log-key") from e
    w = Witness(_signer(name, key_file), keys, WitnessState(state))
    server = make_server(host, port, w.add_checkpoint, w.monitor)
    bound = server.server_address[1]
    click.echo(f"witness {name} listening on http://{host}:{bound} ({w.vkey})", color=False)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
