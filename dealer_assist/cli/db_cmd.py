"""Database commands: ``db upgrade``, ``verify``, ``export``, ``import``, ``users``
(``add``, ``list``, ``reset-pin``, ``disable``, ``enable``).

Each honours ``--db URL`` (before or after the command) and ``DEALER_ASSIST_DB``. Commands that
act for a person (export, import, users) sign in: ``--as NAME`` and the PIN from ``--pin``,
``DEALER_ASSIST_PIN`` or a prompt; every such action is in the audit log.

The options and the sign-in the commands share are in :mod:`dealer_assist.cli.options`.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

from dealer_assist.cli.options import (
    add_db_option,
    add_secret_pin_options,
    add_signin_options,
    ensure_admin,
    given_secret_pin,
    open_services,
    prompt_pin,
    record_id,
    sign_in,
)
from dealer_assist.errors import BadInput


def add_parser(sub: Any) -> None:
    db = sub.add_parser("db", help="database upkeep: upgrade, where it is")
    dbsub = db.add_subparsers(dest="db_command", metavar="ACTION", required=True)
    up = dbsub.add_parser("upgrade", help="create or upgrade the database to this version")
    add_db_option(up)
    _admin_options(up)
    up.add_argument("--station-role", metavar="ROLE",
                    help="PostgreSQL, run as the tables' owner: give ROLE (the role the stations "
                    "connect as) select and insert only, and update of the columns the app moves")
    up.set_defaults(func=run_upgrade)
    info = dbsub.add_parser("info", help="which database, its schema and its size")
    add_db_option(info)
    info.set_defaults(func=run_info)

    v = sub.add_parser("verify", help="check every hash chain, hand replay and ledger")
    add_db_option(v)
    v.add_argument("--anchors", metavar="FILE",
                   help="also check the database against an anchors file written by "
                   "`checkpoints export` (a cut tail, a recomputed chain, a deleted checkpoint)")
    v.add_argument("--archive", metavar="FILE",
                   help="check an archive written by `archive` instead, on its own (no "
                   "database needed): its signature, every hash and link, every hand's "
                   "replay against its ledger, and its checkpoints")
    v.add_argument("--since-checkpoint", action="store_true",
                   help="check only what came after the newest signed checkpoint that verifies")
    v.add_argument("--strict", action="store_true",
                   help="exit 1 on notes too: genuine records named in their own words (a hand "
                   "settled under an earlier rule, demo hands dealt at other stakes)")
    v.add_argument("--key", metavar="FILE", default=None,
                   help="the room's signing key, to check the checkpoints' signatures (env "
                   "DEALER_ASSIST_KEY; default: room-key.pem in the user data folder)")
    v.set_defaults(func=run_verify)

    ex = sub.add_parser("export", help="write a hand log (JSON Lines, the replay format)")
    add_db_option(ex)
    ex.add_argument("--hand", type=record_id, required=True, metavar="ID",
                    help="the hand's id")
    ex.add_argument("--out", metavar="FILE", help="write here instead of standard output")
    add_signin_options(ex)
    ex.set_defaults(func=run_export)

    im = sub.add_parser("import", help="load a hand log into a table (replayed and checked)")
    add_db_option(im)
    im.add_argument("file", help="hand log (JSON Lines), or - for standard input")
    im.add_argument("--table", required=True, metavar="T", help="table name or id")
    add_signin_options(im)
    im.set_defaults(func=run_import)

    us = sub.add_parser("users", help="add and list users (admin)")
    ussub = us.add_subparsers(dest="users_command", metavar="ACTION", required=True)
    add = ussub.add_parser("add", help="add a user")
    add_db_option(add)
    add.add_argument("name", help="sign-in name (one word)")
    add.add_argument("--full-name", required=True, help="full name, for signed reports")
    add.add_argument("--role", required=True, choices=("dealer", "floor", "auditor", "admin"))
    add_secret_pin_options(add, "new-pin", "the new user's PIN (prompted when omitted)")
    add_signin_options(add)
    _admin_options(add)
    add.set_defaults(func=run_users_add)
    ls = ussub.add_parser("list", help="list users and roles")
    add_db_option(ls)
    add_signin_options(ls)
    ls.set_defaults(func=run_users_list)
    rp = ussub.add_parser("reset-pin", help="set a user's PIN (lifts a lockout)")
    add_db_option(rp)
    rp.add_argument("name")
    add_secret_pin_options(rp, "new-pin", "the new PIN (prompted when omitted)")
    add_signin_options(rp)
    rp.set_defaults(func=run_users_reset)
    for verb, active in (("disable", False), ("enable", True)):
        p = ussub.add_parser(verb, help=f"{verb} a user's sign-in (never your own name)")
        add_db_option(p)
        p.add_argument("name")
        add_signin_options(p)
        p.set_defaults(func=run_users_active, active=active)


def _admin_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--admin-name", default="admin",
                   help="first run only: the admin's sign-in name (default admin)")
    p.add_argument("--admin-full-name", default="Administrator",
                   help="first run only: the admin's full name")
    add_secret_pin_options(p, "admin-pin", "first run only: the admin's PIN, without a prompt")



def run_upgrade(args: argparse.Namespace) -> int:
    from dealer_assist.db.bootstrap import open_database, schema_state

    db = open_database(getattr(args, "db", None))
    try:
        current, head, _ = schema_state(db)
        print(f"{db.describe()}: schema {current} (this version's newest is {head})")
        if db.backup is not None:
            print(f"the file before the upgrade was copied to {db.backup}")
        from dealer_assist.db.bootstrap import services_on

        ensure_admin(services_on(db), args)
        role = getattr(args, "station_role", None)
        if role:
            from dealer_assist.db.grants import grant_station

            _must_own_the_tables(db)

            left = grant_station(db, role)
            print(f"the role {role} may now select and insert, and update only the columns the "
                  "app moves; no delete, no ownership; its sessions end when left idle inside "
                  "a transaction")
            if left:
                print(f"warning: the owner may not take these from {role} (or from PUBLIC); "
                      "run them as a superuser on this database, then db upgrade "
                      "--station-role again:\n  " + ";\n  ".join(left) + ";", file=sys.stderr)
    finally:
        db.close()
    return 0


def _must_own_the_tables(db: Any) -> None:
    """Grants are the tables' owner's to give: PostgreSQL only warns when another role tries
    ("no privileges were granted"), so ask first rather than say they were set."""
    if db.dialect != "postgresql":
        return
    with db.engine.connect() as conn:
        row = conn.exec_driver_sql(
            "SELECT current_user, t.tableowner, pg_has_role(current_user, t.tableowner, "
            "'USAGE') OR (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) "
            "FROM pg_tables t WHERE t.schemaname = current_schema() AND t.tablename = 'events'"
        ).first()
    if row is not None and not row[2]:
        raise BadInput(f"the role {row[0]} does not own the tables ({row[1]} does): run "
                       f"`dealer-assist db upgrade --station-role ...` as {row[1]}; no grant "
                       "was changed")


def run_info(args: argparse.Namespace) -> int:
    from dealer_assist.db.bootstrap import open_database, schema_state, services_on
    from dealer_assist.services import HandFilter

    db = open_database(getattr(args, "db", None), upgrade=False, create=False)
    try:
        current, head, _ = schema_state(db)
        store = services_on(db).reads
        tables = store.list_tables()
        hands = len(store.list_hands(HandFilter(limit=None)))
        print(f"database: {db.describe()} ({db.dialect})")
        print(f"schema: {current} (newest known: {head})")
        print(f"cardroom: {store.cardroom_name()}")
        print(f"users: {store.count_users()}, tables: {len(tables)}, hands: {hands}")
        for t in tables:
            head_row = store.chain_head(t.id)
            at = f"seq {head_row.seq}, {head_row.hash[:16]}..." if head_row else "no events"
            print(f"  {t.name} (id {t.id}): chain head {at}")
    finally:
        db.close()
    return 0


def run_verify(args: argparse.Namespace) -> int:
    from dealer_assist.db.bootstrap import open_database
    from dealer_assist.db.checkpoints import read_anchors
    from dealer_assist.db.keys import key_path, load_key
    from dealer_assist.db.verify import verify_database

    anchors = read_anchors(Path(args.anchors)) if getattr(args, "anchors", None) else None
    if getattr(args, "archive", None):
        return _verify_archive(args, anchors)
    key = None
    try:
        path = key_path(getattr(args, "key", None))
    except BadInput:
        path = None
    if path is not None and path.exists():
        key = load_key(path)
    elif getattr(args, "key", None):
        raise BadInput(f"no signing key at {args.key}")
    db = open_database(getattr(args, "db", None), create=False)
    try:
        began = time.perf_counter()
        report = verify_database(db, key=key, anchors=anchors,
                                 since_checkpoint=getattr(args, "since_checkpoint", False))
        took = time.perf_counter() - began
    finally:
        db.close()
    rate = f" ({report.hands / took:,.0f} hands/s)" if took > 0 and report.hands else ""
    if report.ok and not (report.notes and getattr(args, "strict", False)):
        print(f"{report.summary()}; {took:.1f} s{rate}")
        return 0
    print(report.summary(), file=sys.stderr)
    return 1


def _verify_archive(args: argparse.Namespace, anchors: Any) -> int:
    """``verify --archive FILE``: the archive on its own; the room's key, when known here (a
    key file, or the public key of an anchors file), must be the one that signed it."""
    from dealer_assist.db.archive import check_archive
    from dealer_assist.db.keys import load_key

    key = anchors.key if anchors is not None else None
    if getattr(args, "key", None):
        key = load_key(Path(args.key))
    result = check_archive(Path(args.archive), key)
    if result.ok:
        print(result.summary())
        return 0
    print(result.summary(), file=sys.stderr)
    return 1


def check_writable(path: str, *, what: str) -> None:
    """Refuse an output file that cannot be written, before anything is done or logged."""
    from dealer_assist.bounded import check_output_file

    p = check_output_file(path, what=what)
    folder = p.parent
    if not os.access(p if p.exists() else folder, os.W_OK):
        raise BadInput(f"cannot write {path} (no permission); nothing was {what}")


def run_export(args: argparse.Namespace) -> int:
    if args.out:
        check_writable(args.out, what="exported")
    svc = open_services(args, create=False)
    session = sign_in(svc, args)
    exported = svc.export_hand_log(session, args.hand)
    text = exported.text
    for why in exported.left_out:  # (verify names each as its record's fault)
        print(f"warning: hand {args.hand}: left out {why}", file=sys.stderr)
    if args.out:
        try:
            Path(args.out).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise BadInput(f"cannot write {args.out} ({exc.strerror or exc}): the export is "
                           "in the audit log; export again to a file you can write") from exc
        print(f"hand {args.hand}: {len(text.splitlines())} events written to {args.out}",
              file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def run_import(args: argparse.Namespace) -> int:
    from dealer_assist.bounded import log_lines

    if args.file != "-":
        if Path(args.file).is_dir():
            raise BadInput(f"{args.file} is a folder, not a hand log: name the .jsonl file")
        if not Path(args.file).exists():
            raise BadInput(f"no such file: {args.file}")
    svc = open_services(args, create=False)
    session = sign_in(svc, args)
    table = svc.find_table(args.table)
    hand = svc.import_hand(session, table.id, log_lines(args.file))  # read as it is parsed
    print(f"imported as hand {hand.number} of {table.name} (id {hand.id}), {hand.events} "
          f"events, {hand.status}")
    return 0


def run_users_add(args: argparse.Namespace) -> int:
    svc = open_services(args)
    ensure_admin(svc, args)
    session = sign_in(svc, args)
    pin = given_secret_pin(args, "new_pin") or prompt_pin(f"PIN for {args.name}")
    user = svc.add_user(session, name=args.name, full_name=args.full_name, role=args.role,
                        pin=pin)
    print(f"added {user.name} ({user.full_name}) as {user.role}")
    return 0


def run_users_list(args: argparse.Namespace) -> int:
    svc = open_services(args, create=False)
    session = sign_in(svc, args)
    for st in svc.user_states(session):
        u = st.user
        notes = [] if u.active else ["disabled"]
        if st.locked_until is not None:
            notes.append(f"locked out until {st.locked_until:%H:%M} UTC")
        elif st.failed:
            notes.append(f"{st.failed} wrong PIN{'s' if st.failed > 1 else ''}")
        state = f"  ({', '.join(notes)})" if notes else ""
        print(f"{u.name:<16} {u.role:<8} {u.full_name}{state}")
    return 0


def run_users_active(args: argparse.Namespace) -> int:
    svc = open_services(args, create=False)
    session = sign_in(svc, args)
    svc.set_user_active(session, args.name, args.active)
    print(f"{args.name} {'enabled' if args.active else 'disabled'}")
    return 0


def run_users_reset(args: argparse.Namespace) -> int:
    svc = open_services(args, create=False)
    session = sign_in(svc, args)
    pin = given_secret_pin(args, "new_pin") or prompt_pin(f"new PIN for {args.name}")
    svc.reset_pin(session, args.name, pin)
    print(f"new PIN set for {args.name}")
    return 0
