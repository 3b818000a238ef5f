"""``pcfserver user add|list|remove``: the users of a data directory (works beside a running server,
which sees the change at its next request, and before the server's first start)."""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path

from pcfserver.users import ROLES, UserError, UserStore


def configure(name: str, parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    add = actions.add_parser("add", help="add a user, or replace one of the same name")
    add.add_argument("name")
    add.add_argument("--role", action="append", choices=ROLES, required=True, help="a role (repeat for several)")
    add.add_argument("--group", action="append", default=[], help="a group the user belongs to, for authority records (repeat for several)")
    add.add_argument("--password-stdin", action="store_true", help="read the password from the first line of standard input")
    listing = actions.add_parser("list", help="list the users, their roles and groups")
    remove = actions.add_parser("remove", help="remove a user")
    remove.add_argument("name")
    for child in (add, listing, remove):
        child.add_argument("--data", default="./pcfdata", help="the server's data directory (default ./pcfdata)")


def _password(args: argparse.Namespace) -> str:
    if args.password_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    first = getpass.getpass(f"Password for {args.name}: ")
    if getpass.getpass("Again: ") != first:
        raise UserError("the two passwords differ")
    return first


def run(name: str, args: argparse.Namespace) -> int:
    store = UserStore(Path(args.data))
    try:
        if args.action == "add":
            user = store.add(args.name, args.role, _password(args), args.group)
            print(f"user {user.name} added: roles {' '.join(sorted(user.roles))}" + (f", groups {' '.join(user.groups)}" if user.groups else ""))
        elif args.action == "remove":
            if not store.remove(args.name):
                print(f"pcfserver user: no user {args.name}", file=sys.stderr)
                return 1
            print(f"user {args.name} removed")
        else:
            for user in store.users():
                print(f"{user.name}\t{' '.join(sorted(user.roles))}\t{' '.join(user.groups)}")
    except UserError as exc:
        print(f"pcfserver user: {exc}", file=sys.stderr)
        return 2
    finally:
        store.close()
    return 0
