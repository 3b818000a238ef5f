"""Command languages on the PCF engine: MQSC (runmqsc), TPF ZMQSC and IBM i CL (sans-IO).

Text in, PCF ``Message`` objects out; PCF answers back to text in each platform's own style.
Nothing here opens a socket: whoever runs commands passes an ``execute`` callable (a PCF
command in, its answer, ``list[Message]``, out), which is the engine in-process (MQCMD_ESCAPE)
or a client over TCP (``pcfserver console`` / ``pcfserver dump``).  ``execute`` raises
:class:`ExecuteError` when the queue manager cannot be reached.

Scripts::

    transcript = run_script(text, execute, dialect="mqsc")   # or "tpf", "ibmi", "auto"
    transcript.text        # what runmqsc prints: banner, numbered echo, AMQ lines, summary
    transcript.exit_code   # 0 all processed, 10 something failed or had a syntax error, 20 no queue manager
    transcript.outcomes    # one Outcome per command: .status ("ok", "failed", "syntax"), .lines, .blocks

    runner = ScriptRunner(execute, dialect="auto")             # the same, a line at a time
    print(*runner.start(), *runner.feed(line), *runner.finish(), sep="\\n")

One command::

    parse_command("DEFINE QLOCAL(Q1) MAXDEPTH(5000)")   # [Message(MQCMD_CREATE_Q, ...)]; CommandSyntaxError
                                                         # (.segment: the text up to the error) if unreadable
    mqsc.run(text, execute)         # Outcome: runmqsc's lines for that command
    tpf.run(text, execute)          # "ZMQSC ALT QL-'local.queue' GET-DISABLED" -> MQSC0146I ... ALTERED
    ibmi.run(text, execute, Context(qmgr_name="QM1"))   # "CHGMQMQ QNAME(Q1) MAXDEPTH(10)" -> AMQ8008 ...
    render_command(message)         # a PCF command as one line of MQSC (NotExpressible if MQSC cannot say it)
    render_answer(command, answer)  # runmqsc's lines for any PCF answer (a failure without an AMQ text
                                    # still shows the MQRC name and number)

Keywords and values (plain values both ways; for the REST API's runCommandJSON)::

    keyword_parameter("maxdepth")                     # 15 (MQIA_MAX_Q_DEPTH)
    parameter_keyword(mq.MQIA_INHIBIT_PUT)            # "PUT"
    to_pcf_value(mq.MQIA_INHIBIT_PUT, "disabled")     # 1
    from_pcf_value(mq.MQIA_INHIBIT_PUT, 1)            # "DISABLED"
    pcf_parameters({"maxdepth": 5000})                # (Integer(MQIA_MAX_Q_DEPTH, 5000),)
    keyword_values(response.parameters)               # {"queue": "Q1", "maxdepth": 5000, ...}

Registry as a script (dmpmqcfg-like)::

    dump(execute, dialect="mqsc", all_attributes=False)   # DEFINE ... REPLACE commands that recreate the queues

Everything a language knows is in ``formats/``: the ``mqsc``/``tpf``/``ibmi`` columns of the
attribute tables, ``dialect-values.tsv`` (value words), ``dialect-commands.tsv``,
``dialect-synonyms.tsv``, ``ibmi-parameters.tsv``, ``dialect-only-attributes.tsv`` and
``dialect-messages.tsv`` (message ids and texts, each with its source; chosen ones say why).
"""

from pcfserver.dialects import ibmi, mqsc, tpf
from pcfserver.dialects.dump import dump
from pcfserver.dialects.keywords import (
    from_pcf_value,
    keyword_parameter,
    keyword_values,
    parameter_keyword,
    pcf_parameters,
    to_pcf_value,
)
from pcfserver.dialects.lexer import CommandSyntaxError, UnknownCommandError
from pcfserver.dialects.mqsc import NotExpressible, parse_command, render_answer, render_command
from pcfserver.dialects.outcome import Block, Context, Execute, ExecuteError, Outcome
from pcfserver.dialects.runner import ScriptRunner, Transcript, detect, run_script

__all__ = [
    "Block",
    "CommandSyntaxError",
    "Context",
    "Execute",
    "ExecuteError",
    "NotExpressible",
    "Outcome",
    "ScriptRunner",
    "Transcript",
    "UnknownCommandError",
    "detect",
    "dump",
    "from_pcf_value",
    "ibmi",
    "keyword_parameter",
    "keyword_values",
    "mqsc",
    "parameter_keyword",
    "parse_command",
    "pcf_parameters",
    "render_answer",
    "render_command",
    "run_script",
    "to_pcf_value",
    "tpf",
]
