"""Users, sign-in, PINs, approvals and the cardroom's name: the services' calls, passed on to
the users' handlers (:mod:`dealer_assist.services.user_handlers`, over the users' port, the
audit log's and the authorizer only) and, for an approval, to the authorizer."""

from __future__ import annotations

from dealer_assist.services.base import Approval, ServicesBase
from dealer_assist.services.model import Approver, Session, User, UserState


class UserServices(ServicesBase):
    """Users and sign-in: who may do what, PINs and lockouts, floor approvals."""

    def needs_first_admin(self) -> bool:
        """True on a new database: the first run must create the admin."""
        return self.user_handlers.needs_first_admin()

    def create_first_admin(self, *, name: str, full_name: str, pin: str) -> User:
        """The first user of a new database; refused once any user exists."""
        return self.user_handlers.create_first_admin(name=name, full_name=full_name, pin=pin)

    def sign_in(self, name: str, pin: str) -> Session:
        """Check a PIN. Three wrong PINs in a row lock the user for five minutes; logged."""
        return self.user_handlers.sign_in(name, pin)

    def sign_out(self, session: Session) -> None:
        self.user_handlers.sign_out(session)

    def approve(
        self, approval: Approval, *, what: str, permission: str = "approve",
        table_id: int | None = None, hand_id: int | None = None,
        session: Session | None = None,
    ) -> Approver:
        """A floor approval of ``what`` ("misdeal of hand 8"), checked and bound to it by the
        authorizer (:meth:`Authorizer.approve`): the approved change carries the returned
        approver's ``entry``."""
        return self.authorizer.approve(approval, what=what, permission=permission,
                                       table_id=table_id, hand_id=hand_id, session=session)

    def add_user(
        self, session: Session, *, name: str, full_name: str, role: str, pin: str
    ) -> User:
        return self.user_handlers.add_user(session, name=name, full_name=full_name, role=role,
                                           pin=pin)

    def reset_pin(self, session: Session, name: str, pin: str) -> None:
        """Admin: set a new PIN (also lifts a lockout and clears the wrong-PIN count)."""
        self.user_handlers.reset_pin(session, name, pin)

    def change_pin(self, session: Session, old_pin: str, new_pin: str) -> None:
        """A user changes their own PIN, giving the old one."""
        self.user_handlers.change_pin(session, old_pin, new_pin)

    def set_user_active(self, session: Session, name: str, active: bool) -> None:
        """Admin: disable a user (they can no longer sign in or approve) or enable them again."""
        self.user_handlers.set_user_active(session, name, active)

    def list_users(self, session: Session) -> list[User]:
        return self.user_handlers.list_users(session)

    def user_states(self, session: Session) -> list[UserState]:
        """Admin: every user with their wrong PINs in a row and a running lockout."""
        return self.user_handlers.user_states(session)

    def floor_people(self) -> list[User]:
        """Active floor users (the names a dealer chooses from when opening a shift)."""
        return self.user_handlers.floor_people()

    # --- the cardroom's name -----------------------------------------------------------------
    def cardroom_name(self) -> str:
        return self.user_handlers.cardroom_name()

    def set_cardroom_name(self, session: Session, name: str) -> None:
        """Admin: rename the cardroom (printed on every report a board signs)."""
        self.user_handlers.set_cardroom_name(session, name)

    def name_new_cardroom(self, name: str, *, unnamed: str, station: str) -> bool:
        """The name a station was set up with, given to a database never named; True if it
        named the room."""
        return self.user_handlers.name_new_cardroom(name, unnamed=unnamed, station=station)
