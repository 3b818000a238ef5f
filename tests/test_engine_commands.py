"""Table-driven tests of each command against the documented reasons (shared/reference).

Every case runs in both byte orders through the codec (encode, strict decode, execute) on a
fresh in-memory engine, after its setup commands.  ``param`` is the error parameter expected in
the error message: (MQIACF_PARAMETER_ID or MQIACF_SELECTOR, value), or None for none.
"""

from __future__ import annotations

import pathlib
from dataclasses import dataclass, field

import pytest
from engine_support import (
    ORDERS,
    change,
    command,
    copy,
    create,
    delete,
    error_parameter,
    qname,
    qtype,
    reason,
    reason_text,
    run,
)

from pcfserver import mq
from pcfserver.codec import Integer, Integer64, IntegerFilter, IntegerList, Message, String, StringFilter
from pcfserver.engine import open_engine

L, M, A, R = mq.MQQT_LOCAL, mq.MQQT_MODEL, mq.MQQT_ALIAS, mq.MQQT_REMOTE
PID = mq.MQIACF_PARAMETER_ID
SEL = mq.MQIACF_SELECTOR


@dataclass(frozen=True)
class Case:
    id: str
    command: Message
    reason: int
    param: tuple[int, int] | None = None
    setup: tuple[Message, ...] = field(default=())


def I(pid: int, value: int) -> Integer:  # noqa: E743 - short names keep the table readable
    return Integer(pid, value)


def S(pid: int, value: str, ccsid: int = 0) -> String:
    return String(pid, value, ccsid)


OK = mq.MQRC_NONE
Q1 = create("Q1")

CASES = [
    # ---- Create Queue (S10, S8, command-semantics.md section 3)
    Case("create local", create("Q1", L, I(mq.MQIA_MAX_Q_DEPTH, 10), S(mq.MQCA_Q_DESC, "d")), OK),
    Case("create model", create("M1", M, I(mq.MQIA_DEFINITION_TYPE, mq.MQQDT_PERMANENT_DYNAMIC)), OK),
    Case("create alias", create("A1", A, S(mq.MQCA_BASE_OBJECT_NAME, "Q1")), OK),
    Case("create remote", create("R1", R, S(mq.MQCA_REMOTE_Q_NAME, "X"), S(mq.MQCA_REMOTE_Q_MGR_NAME, "QM2")), OK),
    Case("create existing same type without Replace", Q1, mq.MQRCCF_OBJECT_ALREADY_EXISTS, setup=(Q1,)),
    Case("create existing with Replace NO", create("Q1", L, I(mq.MQIACF_REPLACE, 0)), mq.MQRCCF_OBJECT_ALREADY_EXISTS, setup=(Q1,)),
    Case("create existing with Replace YES", create("Q1", L, I(mq.MQIACF_REPLACE, 1)), OK, setup=(Q1,)),
    Case("create same name other type", create("Q1", A), mq.MQRCCF_OBJECT_WRONG_TYPE, setup=(Q1,)),
    Case("create same name other type even with Replace", create("Q1", R, I(mq.MQIACF_REPLACE, 1)), mq.MQRCCF_OBJECT_WRONG_TYPE, setup=(Q1,)),
    Case("create without parameters", command(mq.MQCMD_CREATE_Q), mq.MQRCCF_PARM_COUNT_TOO_SMALL),
    Case("create with QName only", command(mq.MQCMD_CREATE_Q, qname("Q1")), mq.MQRCCF_PARM_COUNT_TOO_SMALL),
    Case("create QType before QName", command(mq.MQCMD_CREATE_Q, qtype(L), qname("Q1")), mq.MQRCCF_PARM_SEQUENCE_ERROR, (PID, mq.MQCA_Q_NAME)),
    Case("create QType missing", command(mq.MQCMD_CREATE_Q, qname("Q1"), I(mq.MQIA_MAX_Q_DEPTH, 5)), mq.MQRCCF_PARM_MISSING, (PID, mq.MQIA_Q_TYPE)),
    Case("create QType not valid", create("Q1", 5), mq.MQRCCF_Q_TYPE_ERROR, (PID, mq.MQIA_Q_TYPE)),
    Case("create QType ALL not valid", create("Q1", mq.MQQT_ALL), mq.MQRCCF_Q_TYPE_ERROR, (PID, mq.MQIA_Q_TYPE)),
    Case("create MaxQDepth below range", create("Q1", L, I(mq.MQIA_MAX_Q_DEPTH, -1)), mq.MQRCCF_PARM_VALUE_ERROR, (PID, mq.MQIA_MAX_Q_DEPTH)),
    Case("create MaxQDepth top of range", create("Q1", L, I(mq.MQIA_MAX_Q_DEPTH, 999999999)), OK),
    Case("create MaxQDepth above range", create("Q1", L, I(mq.MQIA_MAX_Q_DEPTH, 1000000000)), mq.MQRCCF_PARM_VALUE_ERROR, (PID, mq.MQIA_MAX_Q_DEPTH)),
    Case("create DefPriority 10", create("Q1", L, I(mq.MQIA_DEF_PRIORITY, 10)), mq.MQRCCF_PARM_VALUE_ERROR, (PID, mq.MQIA_DEF_PRIORITY)),
    Case("create Usage not in set", create("Q1", L, I(mq.MQIA_USAGE, 7)), mq.MQRCCF_PARM_VALUE_ERROR, (PID, mq.MQIA_USAGE)),
    Case("create CapExpiry NOLIMIT", create("Q1", L, I(mq.MQIA_CAP_EXPIRY, -1)), OK),
    Case("create CapExpiry 0", create("Q1", L, I(mq.MQIA_CAP_EXPIRY, 0)), mq.MQRCCF_PARM_VALUE_ERROR, (PID, mq.MQIA_CAP_EXPIRY)),
    Case("create MaxMsgLength too big", create("Q1", L, I(mq.MQIA_MAX_MSG_LENGTH, 104857601)), mq.MQRCCF_MAX_MSG_LENGTH_ERROR, (PID, mq.MQIA_MAX_MSG_LENGTH)),
    Case("create Replace not valid", create("Q1", L, I(mq.MQIACF_REPLACE, 2)), mq.MQRCCF_REPLACE_VALUE_ERROR, (PID, mq.MQIACF_REPLACE)),
    Case("create QDesc 64 characters", create("Q1", L, S(mq.MQCA_Q_DESC, "x" * 64)), OK),
    Case("create QDesc 65 characters", create("Q1", L, S(mq.MQCA_Q_DESC, "x" * 65)), mq.MQRCCF_CFST_STRING_LENGTH_ERR, (PID, mq.MQCA_Q_DESC)),
    Case("create QDesc with blanks past 64", create("Q1", L, S(mq.MQCA_Q_DESC, "x" * 64 + "    ")), OK),
    Case("create name 48 characters", create("Q" * 48), OK),
    Case("create name 49 characters", create("Q" * 49), mq.MQRCCF_CFST_STRING_LENGTH_ERR, (PID, mq.MQCA_Q_NAME)),
    Case("create name with all valid characters", create("a.B/c_%9"), OK),
    Case("create name with a blank inside", create("A B"), mq.MQRCCF_OBJECT_NAME_ERROR, (PID, mq.MQCA_Q_NAME)),
    Case("create name with a star", create("A*"), mq.MQRCCF_OBJECT_NAME_ERROR, (PID, mq.MQCA_Q_NAME)),
    Case("create name with a dash", create("A-B"), mq.MQRCCF_OBJECT_NAME_ERROR, (PID, mq.MQCA_Q_NAME)),
    Case("create blank name", create("   "), mq.MQRCCF_PARM_VALUE_ERROR, (PID, mq.MQCA_Q_NAME)),
    Case("create name ended by NUL", create("NUL.Q\0garbage"), OK),
    Case("create EBCDIC 500 name", command(mq.MQCMD_CREATE_Q, qname("EBCDIC.Q500", 500), qtype(L)), OK),
    Case("create EBCDIC 37 name", command(mq.MQCMD_CREATE_Q, qname("EBCDIC.Q37", 37), qtype(L)), OK),
    Case("create alias with MaxQDepth", create("A1", A, I(mq.MQIA_MAX_Q_DEPTH, 5)), mq.MQRCCF_CFIN_PARM_ID_ERROR, (PID, mq.MQIA_MAX_Q_DEPTH)),
    Case("create remote with InitiationQName", create("R1", R, S(mq.MQCA_INITIATION_Q_NAME, "I")), mq.MQRCCF_CFST_PARM_ID_ERROR, (PID, mq.MQCA_INITIATION_Q_NAME)),
    Case("create local with BaseObjectName", create("Q1", L, S(mq.MQCA_BASE_OBJECT_NAME, "X")), mq.MQRCCF_CFST_PARM_ID_ERROR, (PID, mq.MQCA_BASE_OBJECT_NAME)),
    Case("create model with ClusterName", create("M1", M, S(mq.MQCA_CLUSTER_NAME, "C")), mq.MQRCCF_CFST_PARM_ID_ERROR, (PID, mq.MQCA_CLUSTER_NAME)),
    Case("create with Force", create("Q1", L, I(mq.MQIACF_FORCE, 1)), mq.MQRCCF_CFIN_PARM_ID_ERROR, (PID, mq.MQIACF_FORCE)),
    Case("create with inquire-only CurrentQDepth", create("Q1", L, I(mq.MQIA_CURRENT_Q_DEPTH, 1)), mq.MQRCCF_CFIN_PARM_ID_ERROR, (PID, mq.MQIA_CURRENT_Q_DEPTH)),
    Case("create with unknown integer id", create("Q1", L, I(9999, 1)), mq.MQRCCF_CFIN_PARM_ID_ERROR, (PID, 9999)),
    Case("create with unknown string id", create("Q1", L, S(3999, "x")), mq.MQRCCF_CFST_PARM_ID_ERROR, (PID, 3999)),
    Case("create with a list parameter", create("Q1", L, IntegerList(mq.MQIACF_Q_ATTRS, (1,))), mq.MQRCCF_CFIL_PARM_ID_ERROR, (PID, mq.MQIACF_Q_ATTRS)),
    Case("create with MaxQDepth as MQCFIN64", create("Q1", L, Integer64(mq.MQIA_MAX_Q_DEPTH, 5)), mq.MQRCCF_CFIN_PARM_ID_ERROR, (PID, mq.MQIA_MAX_Q_DEPTH)),
    Case("create with QDesc as an integer", create("Q1", L, I(mq.MQCA_Q_DESC, 5)), mq.MQRCCF_CFIN_PARM_ID_ERROR, (PID, mq.MQCA_Q_DESC)),
    Case("create z/OS CFStructure", create("Q1", L, S(mq.MQCA_CF_STRUC_NAME, "S")), mq.MQRCCF_CFST_PARM_ID_ERROR, (PID, mq.MQCA_CF_STRUC_NAME)),
    Case("create z/OS QSGDisposition", create("Q1", L, I(mq.MQIA_QSG_DISP, 0)), mq.MQRCCF_CFIN_PARM_ID_ERROR, (PID, mq.MQIA_QSG_DISP)),
    Case("create z/OS CommandScope", create("Q1", L, S(mq.MQCACF_COMMAND_SCOPE, "*")), mq.MQRCCF_CFST_PARM_ID_ERROR, (PID, mq.MQCACF_COMMAND_SCOPE)),
    Case("create z/OS IndexType", create("Q1", L, I(mq.MQIA_INDEX_TYPE, 0)), mq.MQRCCF_CFIN_PARM_ID_ERROR, (PID, mq.MQIA_INDEX_TYPE)),
    Case("create duplicate MaxQDepth", create("Q1", L, I(mq.MQIA_MAX_Q_DEPTH, 1), I(mq.MQIA_MAX_Q_DEPTH, 2)), mq.MQRCCF_CFIN_DUPLICATE_PARM, (PID, mq.MQIA_MAX_Q_DEPTH)),
    Case("create duplicate QDesc", create("Q1", L, S(mq.MQCA_Q_DESC, "a"), S(mq.MQCA_Q_DESC, "b")), mq.MQRCCF_CFST_DUPLICATE_PARM, (PID, mq.MQCA_Q_DESC)),
    Case("create duplicate QType", create("Q1", L, qtype(L)), mq.MQRCCF_CFIN_DUPLICATE_PARM, (PID, mq.MQIA_Q_TYPE)),
    Case("create ClusterName and ClusterNamelist", create("Q1", L, S(mq.MQCA_CLUSTER_NAME, "C"), S(mq.MQCA_CLUSTER_NAMELIST, "N")), mq.MQRCCF_CLUSTER_NAME_CONFLICT),
    Case("create ClusterName alone", create("Q1", L, S(mq.MQCA_CLUSTER_NAME, "C")), OK),
    Case("create transmission queue in a cluster", create("X1", L, I(mq.MQIA_USAGE, 1), S(mq.MQCA_CLUSTER_NAME, "C")), mq.MQRCCF_CLUSTER_Q_USAGE_ERROR),
    # (IBM's SYSTEM.CHANNEL.INITQ exists on a new queue manager: Change it, or Create it again with Replace)
    Case("change SYSTEM.CHANNEL.INITQ into a cluster", change("SYSTEM.CHANNEL.INITQ", L, S(mq.MQCA_CLUSTER_NAME, "C")), mq.MQRCCF_CLUSTER_Q_USAGE_ERROR),
    Case(
        "replace SYSTEM.CHANNEL.INITQ into a cluster",
        create("SYSTEM.CHANNEL.INITQ", L, S(mq.MQCA_CLUSTER_NAME, "C"), I(mq.MQIACF_REPLACE, mq.MQRP_YES)),
        mq.MQRCCF_CLUSTER_Q_USAGE_ERROR,
    ),
    Case("create with cell scope", create("Q1", L, I(mq.MQIA_SCOPE, mq.MQSCO_CELL)), mq.MQRCCF_CELL_DIR_NOT_AVAILABLE, (PID, mq.MQIA_SCOPE)),
    Case("create ClusterChannelName 20", create("X1", L, I(mq.MQIA_USAGE, mq.MQUS_TRANSMISSION), S(mq.MQCA_CLUS_CHL_NAME, "C" * 20)), OK),
    Case("create ClusterChannelName on a normal queue", create("X1", L, S(mq.MQCA_CLUS_CHL_NAME, "C")), mq.MQRCCF_CLUS_XMIT_Q_USAGE_ERROR),
    # ClusterChannelName applies to model queues too (SYSTEM.CLUSTER.TRANSMIT.MODEL.QUEUE; dmpmqcfg writes CLCHNAME(' ') on every model)
    Case("create model ClusterChannelName blank", create("M1", M, S(mq.MQCA_CLUS_CHL_NAME, "")), OK),
    Case("create model transmission ClusterChannelName", create("M1", M, I(mq.MQIA_USAGE, mq.MQUS_TRANSMISSION), S(mq.MQCA_CLUS_CHL_NAME, "C.*")), OK),
    Case("create model ClusterChannelName on a normal queue", create("M1", M, S(mq.MQCA_CLUS_CHL_NAME, "C")), mq.MQRCCF_CLUS_XMIT_Q_USAGE_ERROR),
    Case("create alias ClusterChannelName", create("A1", A, S(mq.MQCA_CLUS_CHL_NAME, "")), mq.MQRCCF_CFST_PARM_ID_ERROR, (PID, mq.MQCA_CLUS_CHL_NAME)),
    Case("create ClusterChannelName 21", create("X1", L, S(mq.MQCA_CLUS_CHL_NAME, "C" * 21)), mq.MQRCCF_CFST_STRING_LENGTH_ERR, (PID, mq.MQCA_CLUS_CHL_NAME)),
    Case("create MQCFT_COMMAND version 1", command(mq.MQCMD_CREATE_Q, qname("Q1"), qtype(L), version=1, kind=mq.MQCFT_COMMAND), OK),
    Case("create MQCFT_COMMAND_XR version 2", command(mq.MQCMD_CREATE_Q, qname("Q1"), qtype(L), version=2), OK),
    # ---- Copy Queue (S10, S8)
    Case("copy", copy("Q1", "Q2", L, I(mq.MQIA_MAX_Q_DEPTH, 3)), OK, setup=(Q1,)),
    Case("copy from a missing queue", copy("NOPE", "Q2"), mq.MQRC_UNKNOWN_OBJECT_NAME),
    Case("copy with QType of another type", copy("Q1", "Q2", A), mq.MQRCCF_LIKE_OBJECT_WRONG_TYPE, setup=(Q1,)),
    Case("copy onto an existing queue", copy("Q1", "Q2"), mq.MQRCCF_OBJECT_ALREADY_EXISTS, setup=(Q1, create("Q2"))),
    Case("copy onto an existing queue with Replace", copy("Q1", "Q2", L, I(mq.MQIACF_REPLACE, 1)), OK, setup=(Q1, create("Q2"))),
    Case("copy onto a queue of another type", copy("SYSTEM.DEFAULT.ALIAS.QUEUE", "Q1", A, I(mq.MQIACF_REPLACE, 1)), mq.MQRCCF_OBJECT_WRONG_TYPE, setup=(Q1,)),
    Case("copy onto itself", copy("Q1", "Q1"), mq.MQRCCF_OBJECT_ALREADY_EXISTS, setup=(Q1,)),
    Case("copy ToQName first", command(mq.MQCMD_COPY_Q, S(mq.MQCACF_TO_Q_NAME, "Q2"), S(mq.MQCACF_FROM_Q_NAME, "Q1"), qtype(L)), mq.MQRCCF_PARM_SEQUENCE_ERROR, (PID, mq.MQCACF_FROM_Q_NAME)),
    Case("copy with QName instead of FromQName", command(mq.MQCMD_COPY_Q, qname("Q1"), S(mq.MQCACF_TO_Q_NAME, "Q2"), qtype(L)), mq.MQRCCF_CFST_PARM_ID_ERROR, (PID, mq.MQCA_Q_NAME)),
    Case("copy to a bad name", copy("Q1", "Q 2"), mq.MQRCCF_OBJECT_NAME_ERROR, (PID, mq.MQCACF_TO_Q_NAME), setup=(Q1,)),
    Case("copy alias with local attribute", copy("SYSTEM.DEFAULT.ALIAS.QUEUE", "A2", A, I(mq.MQIA_MAX_Q_DEPTH, 1)), mq.MQRCCF_CFIN_PARM_ID_ERROR, (PID, mq.MQIA_MAX_Q_DEPTH)),
    # ---- Change Queue (S10, S11, S8)
    Case("change", change("Q1", L, I(mq.MQIA_MAX_Q_DEPTH, 7), S(mq.MQCA_Q_DESC, "new")), OK, setup=(Q1,)),
    Case("change EBCDIC name and description", command(mq.MQCMD_CHANGE_Q, qname("Q1", 37), qtype(L), S(mq.MQCA_Q_DESC, "d\u00e9j\u00e0", 500)), OK, setup=(Q1,)),
    Case("change a missing queue", change("NOPE", L, I(mq.MQIA_MAX_Q_DEPTH, 7)), mq.MQRC_UNKNOWN_OBJECT_NAME),
    Case("change with QType of another type", change("Q1", A), mq.MQRCCF_OBJECT_WRONG_TYPE, setup=(Q1,)),
    Case("change with Replace", change("Q1", L, I(mq.MQIACF_REPLACE, 1)), mq.MQRCCF_CFIN_PARM_ID_ERROR, (PID, mq.MQIACF_REPLACE), setup=(Q1,)),
    Case("change Force value not valid", change("Q1", L, I(mq.MQIACF_FORCE, 3)), mq.MQRCCF_FORCE_VALUE_ERROR, (PID, mq.MQIACF_FORCE), setup=(Q1,)),
    Case("change Force on a model queue", change("SYSTEM.DEFAULT.MODEL.QUEUE", M, I(mq.MQIACF_FORCE, 1)), mq.MQRCCF_CFIN_PARM_ID_ERROR, (PID, mq.MQIACF_FORCE)),
    Case("change Force YES on a local queue", change("Q1", L, I(mq.MQIACF_FORCE, 1)), OK, setup=(Q1,)),
    Case("change ClusterNamelist onto ClusterName", change("Q1", L, S(mq.MQCA_CLUSTER_NAMELIST, "N")), mq.MQRCCF_CLUSTER_NAME_CONFLICT, setup=(create("Q1", L, S(mq.MQCA_CLUSTER_NAME, "C")),)),
    Case("change ClusterName to blank and namelist set", change("Q1", L, S(mq.MQCA_CLUSTER_NAME, ""), S(mq.MQCA_CLUSTER_NAMELIST, "N")), OK, setup=(create("Q1", L, S(mq.MQCA_CLUSTER_NAME, "C")),)),
    Case("change cluster queue to a transmission queue", change("Q1", L, I(mq.MQIA_USAGE, 1)), mq.MQRCCF_CLUSTER_Q_USAGE_ERROR, setup=(create("Q1", L, S(mq.MQCA_CLUSTER_NAME, "C")),)),
    Case("change alias target", change("SYSTEM.DEFAULT.ALIAS.QUEUE", A, S(mq.MQCA_BASE_OBJECT_NAME, "T")), OK),
    Case("change remote with a local attribute", change("SYSTEM.DEFAULT.REMOTE.QUEUE", R, I(mq.MQIA_MAX_Q_DEPTH, 1)), mq.MQRCCF_CFIN_PARM_ID_ERROR, (PID, mq.MQIA_MAX_Q_DEPTH)),
    Case("change QName missing", command(mq.MQCMD_CHANGE_Q, qtype(L), I(mq.MQIA_MAX_Q_DEPTH, 1)), mq.MQRCCF_PARM_MISSING, (PID, mq.MQCA_Q_NAME)),
    Case("change with a string too long", change("Q1", L, S(mq.MQCA_TRIGGER_DATA, "t" * 65)), mq.MQRCCF_CFST_STRING_LENGTH_ERR, (PID, mq.MQCA_TRIGGER_DATA), setup=(Q1,)),
    # ---- Delete Queue (7.5 Delete Queue page, S8)
    Case("delete", delete("Q1"), OK, setup=(Q1,)),
    Case("delete a missing queue", delete("NOPE"), mq.MQRC_UNKNOWN_OBJECT_NAME),
    Case("delete with matching QType", delete("Q1", qtype(L)), OK, setup=(Q1,)),
    Case("delete with another QType", delete("Q1", qtype(A)), mq.MQRCCF_OBJECT_WRONG_TYPE, setup=(Q1,)),
    Case("delete with Purge", delete("Q1", I(mq.MQIACF_PURGE, 1)), OK, setup=(Q1,)),
    Case("delete Purge not valid", delete("Q1", I(mq.MQIACF_PURGE, 2)), mq.MQRCCF_PURGE_VALUE_ERROR, (PID, mq.MQIACF_PURGE), setup=(Q1,)),
    Case("delete Authrec NO", delete("Q1", I(mq.MQIACF_REMOVE_AUTHREC, 0)), OK, setup=(Q1,)),
    Case("delete Authrec not valid", delete("Q1", I(mq.MQIACF_REMOVE_AUTHREC, 5)), mq.MQRCCF_PARM_VALUE_ERROR, (PID, mq.MQIACF_REMOVE_AUTHREC), setup=(Q1,)),
    Case("delete with an attribute", delete("Q1", I(mq.MQIA_MAX_Q_DEPTH, 5)), mq.MQRCCF_CFIN_PARM_ID_ERROR, (PID, mq.MQIA_MAX_Q_DEPTH), setup=(Q1,)),
    Case("delete without parameters", command(mq.MQCMD_DELETE_Q), mq.MQRCCF_PARM_COUNT_TOO_SMALL),
    # ---- Clear Queue
    Case("clear", command(mq.MQCMD_CLEAR_Q, qname("Q1")), OK, setup=(Q1,)),
    Case("clear a missing queue", command(mq.MQCMD_CLEAR_Q, qname("NOPE")), mq.MQRC_UNKNOWN_OBJECT_NAME),
    Case("clear an alias queue", command(mq.MQCMD_CLEAR_Q, qname("SYSTEM.DEFAULT.ALIAS.QUEUE")), mq.MQRCCF_Q_WRONG_TYPE),
    Case("clear with QSGDisposition", command(mq.MQCMD_CLEAR_Q, qname("Q1"), I(mq.MQIA_QSG_DISP, 4)), mq.MQRCCF_CFIN_PARM_ID_ERROR, (PID, mq.MQIA_QSG_DISP), setup=(Q1,)),
    # ---- Inquire Queue (S14, S19)
    Case("inquire without parameters", command(mq.MQCMD_INQUIRE_Q), mq.MQRCCF_PARM_COUNT_TOO_SMALL),
    Case("inquire one", command(mq.MQCMD_INQUIRE_Q, qname("Q1")), OK, setup=(Q1,)),
    Case("inquire generic", command(mq.MQCMD_INQUIRE_Q, qname("SYSTEM.*")), OK),
    Case("inquire a missing queue", command(mq.MQCMD_INQUIRE_Q, qname("NOPE")), mq.MQRC_UNKNOWN_OBJECT_NAME),
    Case("inquire generic without match", command(mq.MQCMD_INQUIRE_Q, qname("NOPE*")), mq.MQRC_UNKNOWN_OBJECT_NAME),
    Case("inquire QType without match", command(mq.MQCMD_INQUIRE_Q, qname("Q1"), qtype(A)), mq.MQRC_UNKNOWN_OBJECT_NAME, setup=(Q1,)),
    Case("inquire QType CLUSTER", command(mq.MQCMD_INQUIRE_Q, qname("*"), qtype(mq.MQQT_CLUSTER)), mq.MQRC_UNKNOWN_OBJECT_NAME),
    Case("inquire QType not valid", command(mq.MQCMD_INQUIRE_Q, qname("*"), qtype(4)), mq.MQRCCF_Q_TYPE_ERROR, (PID, mq.MQIA_Q_TYPE)),
    Case("inquire QAttrs as MQCFIN", command(mq.MQCMD_INQUIRE_Q, qname("*"), I(mq.MQIACF_Q_ATTRS, mq.MQIACF_ALL)), mq.MQRCCF_CFIN_PARM_ID_ERROR, (PID, mq.MQIACF_Q_ATTRS)),
    Case("inquire duplicate selector", command(mq.MQCMD_INQUIRE_Q, qname("*"), IntegerList(mq.MQIACF_Q_ATTRS, (mq.MQIA_MAX_Q_DEPTH, mq.MQIA_MAX_Q_DEPTH))), mq.MQRCCF_CFIL_DUPLICATE_VALUE, (SEL, mq.MQIA_MAX_Q_DEPTH)),
    Case("inquire unknown selector", command(mq.MQCMD_INQUIRE_Q, qname("*"), IntegerList(mq.MQIACF_Q_ATTRS, (mq.MQIA_MAX_Q_DEPTH, 4242))), mq.MQRC_SELECTOR_ERROR, (SEL, 4242)),
    Case("inquire a bad generic name", command(mq.MQCMD_INQUIRE_Q, qname("A*B")), mq.MQRCCF_OBJECT_NAME_ERROR, (PID, mq.MQCA_Q_NAME)),
    Case("inquire with a Replace", command(mq.MQCMD_INQUIRE_Q, qname("*"), I(mq.MQIACF_REPLACE, 1)), mq.MQRCCF_CFIN_PARM_ID_ERROR, (PID, mq.MQIACF_REPLACE)),
    Case("inquire with z/OS PageSetID", command(mq.MQCMD_INQUIRE_Q, qname("*"), I(mq.MQIA_PAGESET_ID, 1)), mq.MQRCCF_CFIN_PARM_ID_ERROR, (PID, mq.MQIA_PAGESET_ID)),
    Case("inquire with ClusterInfo", command(mq.MQCMD_INQUIRE_Q, qname("*"), I(mq.MQIACF_CLUSTER_INFO, 0)), OK),
    Case("inquire integer filter", command(mq.MQCMD_INQUIRE_Q, qname("*"), IntegerFilter(mq.MQIA_MAX_Q_DEPTH, mq.MQCFOP_GREATER, 1)), OK),
    Case("inquire string filter", command(mq.MQCMD_INQUIRE_Q, qname("*"), StringFilter(mq.MQCA_Q_DESC, mq.MQCFOP_LIKE, "*")), OK),
    Case("inquire two filters", command(mq.MQCMD_INQUIRE_Q, qname("*"), IntegerFilter(mq.MQIA_MAX_Q_DEPTH, mq.MQCFOP_GREATER, 1), IntegerFilter(mq.MQIA_DEF_PRIORITY, mq.MQCFOP_EQUAL, 1)), mq.MQRCCF_TOO_MANY_FILTERS, (PID, mq.MQIA_DEF_PRIORITY)),
    Case("inquire filter on a string as integer", command(mq.MQCMD_INQUIRE_Q, qname("*"), IntegerFilter(mq.MQCA_Q_DESC, mq.MQCFOP_EQUAL, 1)), mq.MQRCCF_CFIF_PARM_ID_ERROR, (PID, mq.MQCA_Q_DESC)),
    Case("inquire string filter bad operator", command(mq.MQCMD_INQUIRE_Q, qname("*"), StringFilter(mq.MQCA_Q_DESC, mq.MQCFOP_CONTAINS_GEN, "x")), mq.MQRCCF_CFSF_OPERATOR_ERROR, (PID, mq.MQCA_Q_DESC)),
    Case("inquire filter on create", create("Q1", L, IntegerFilter(mq.MQIA_MAX_Q_DEPTH, mq.MQCFOP_GREATER, 1)), mq.MQRCCF_CFIF_PARM_ID_ERROR, (PID, mq.MQIA_MAX_Q_DEPTH)),
    # ---- Inquire Queue Names
    Case("inquire names", command(mq.MQCMD_INQUIRE_Q_NAMES, qname("*")), OK),
    Case("inquire names without parameters", command(mq.MQCMD_INQUIRE_Q_NAMES), mq.MQRCCF_PARM_COUNT_TOO_SMALL),
    Case("inquire names EBCDIC generic", command(mq.MQCMD_INQUIRE_Q_NAMES, qname("SYS*", 500)), OK),
    Case("inquire names without match", command(mq.MQCMD_INQUIRE_Q_NAMES, qname("NOPE*")), OK),
    Case("inquire names QType not valid", command(mq.MQCMD_INQUIRE_Q_NAMES, qname("*"), qtype(9)), mq.MQRCCF_Q_TYPE_ERROR, (PID, mq.MQIA_Q_TYPE)),
    # ---- Queue manager
    Case("inquire qmgr", command(mq.MQCMD_INQUIRE_Q_MGR), OK),
    Case("inquire qmgr selectors", command(mq.MQCMD_INQUIRE_Q_MGR, IntegerList(mq.MQIACF_Q_MGR_ATTRS, (mq.MQIA_MAX_UNCOMMITTED_MSGS,))), OK),
    Case("inquire qmgr queue selector", command(mq.MQCMD_INQUIRE_Q_MGR, IntegerList(mq.MQIACF_Q_MGR_ATTRS, (mq.MQIA_MAX_Q_DEPTH,))), mq.MQRC_SELECTOR_ERROR, (SEL, mq.MQIA_MAX_Q_DEPTH)),
    Case("change qmgr MaxUncommittedMsgs", command(mq.MQCMD_CHANGE_Q_MGR, I(mq.MQIA_MAX_UNCOMMITTED_MSGS, 500)), OK),
    Case("change qmgr MaxUncommittedMsgs 0", command(mq.MQCMD_CHANGE_Q_MGR, I(mq.MQIA_MAX_UNCOMMITTED_MSGS, 0)), mq.MQRCCF_PARM_VALUE_ERROR, (PID, mq.MQIA_MAX_UNCOMMITTED_MSGS)),
    Case("change qmgr MaxUncommittedMsgs max", command(mq.MQCMD_CHANGE_Q_MGR, I(mq.MQIA_MAX_UNCOMMITTED_MSGS, 999999999)), OK),
    Case("change qmgr MaxMsgLength too small", command(mq.MQCMD_CHANGE_Q_MGR, I(mq.MQIA_MAX_MSG_LENGTH, 100)), mq.MQRCCF_MAX_MSG_LENGTH_ERROR, (PID, mq.MQIA_MAX_MSG_LENGTH)),
    Case("change qmgr CommandLevel", command(mq.MQCMD_CHANGE_Q_MGR, I(mq.MQIA_COMMAND_LEVEL, 1)), mq.MQRCCF_CFIN_PARM_ID_ERROR, (PID, mq.MQIA_COMMAND_LEVEL)),
    Case("change qmgr without parameters", command(mq.MQCMD_CHANGE_Q_MGR), OK),
    Case("ping", command(mq.MQCMD_PING_Q_MGR), OK),
    Case("ping with a parameter", command(mq.MQCMD_PING_Q_MGR, I(mq.MQIA_MAX_Q_DEPTH, 1)), mq.MQRCCF_PARM_COUNT_TOO_BIG),
    # ---- command codes and header (S8, section 2.1)
    Case("Move Queue needs its target", command(mq.MQCMD_MOVE_Q, S(mq.MQCACF_FROM_Q_NAME, "Q1")), mq.MQRCCF_PARM_COUNT_TOO_SMALL),
    Case("Move Queue of a missing queue", command(mq.MQCMD_MOVE_Q, S(mq.MQCACF_FROM_Q_NAME, "Q1"), S(mq.MQCACF_TO_Q_NAME, "Q2")), mq.MQRC_UNKNOWN_OBJECT_NAME),
    Case("Inquire CF Structure (z/OS only) is out of scope", command(mq.MQCMD_INQUIRE_CF_STRUC), mq.MQRC_FUNCTION_NOT_SUPPORTED),
    Case("unknown command code", command(4242), mq.MQRCCF_CFH_COMMAND_ERROR),
    Case("MQCFT_RESPONSE as a command", command(mq.MQCMD_PING_Q_MGR, kind=mq.MQCFT_RESPONSE), mq.MQRCCF_CFH_TYPE_ERROR),
    Case("MQCFT_EVENT as a command", command(mq.MQCMD_PING_Q_MGR, kind=mq.MQCFT_EVENT), mq.MQRCCF_CFH_TYPE_ERROR),
]


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_command(case: Case, order: str) -> None:
    engine = open_engine()
    for step in case.setup:
        assert reason(run(engine, step, order)) == mq.MQRC_NONE
    before = {name: engine._queues[name] for name in engine.queue_names()}
    answer = run(engine, case.command, order)
    assert reason(answer) == case.reason, reason_text(answer)
    assert error_parameter(answer) == case.param, reason_text(answer)
    if case.reason != mq.MQRC_NONE:
        assert len(answer) == 2
        after = {name: engine._queues[name] for name in engine.queue_names()}
        assert after == before, "a failed command changed the registry"


def test_ids_are_unique() -> None:
    assert len({c.id for c in CASES}) == len(CASES)


# ------------------------------------------------------------------ ClusterChannelName needs USAGE(XMITQ)


def test_cluster_channel_name_needs_a_transmission_queue_on_create_copy_and_change(tmp_path: pathlib.Path) -> None:
    from pcfserver.codec import String as _String

    engine = open_engine(tmp_path)
    clch = _String(mq.MQCA_CLUS_CHL_NAME, "TO.*")
    xmitq = Integer(mq.MQIA_USAGE, mq.MQUS_TRANSMISSION)
    normal = Integer(mq.MQIA_USAGE, mq.MQUS_NORMAL)
    assert reason(run(engine, create("CL.NORMAL", mq.MQQT_LOCAL, clch))) == mq.MQRCCF_CLUS_XMIT_Q_USAGE_ERROR
    assert reason(run(engine, create("CL.X", mq.MQQT_LOCAL, xmitq, clch))) == 0
    # Change sees the final state: dropping XMITQ while CLCHNAME stays is refused, and nothing changes
    assert reason(run(engine, change("CL.X", mq.MQQT_LOCAL, normal))) == mq.MQRCCF_CLUS_XMIT_Q_USAGE_ERROR
    from engine_support import inquire

    assert inquire(engine, "CL.X", mq.MQIA_USAGE)[mq.MQIA_USAGE] == mq.MQUS_TRANSMISSION
    # ... and blanking CLCHNAME in the same command lets it through
    assert reason(run(engine, change("CL.X", mq.MQQT_LOCAL, normal, _String(mq.MQCA_CLUS_CHL_NAME, "")))) == 0
    assert reason(run(engine, copy("CL.X", "CL.COPY", mq.MQQT_LOCAL, clch))) == mq.MQRCCF_CLUS_XMIT_Q_USAGE_ERROR
    assert reason(run(engine, copy("CL.X", "CL.COPY", mq.MQQT_LOCAL, clch, xmitq))) == 0
    assert reason(run(engine, change("CL.COPY", mq.MQQT_LOCAL, Integer(mq.MQIA_MAX_Q_DEPTH, 9)))) == 0  # unrelated change: no check
    engine.close()
