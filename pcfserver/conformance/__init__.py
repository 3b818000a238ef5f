"""The conformance test client: the project's cases, run against any server speaking the wire protocol.

    from pcfserver.conformance import Runner, load_groups
    suite = Runner("127.0.0.1", 1414).run(load_groups())
    print(suite.summary())
"""

from pcfserver.conformance.cases import CASES_DIR, Case, CaseError, Group, load_groups
from pcfserver.conformance.junit import junit_xml, write_junit
from pcfserver.conformance.runner import CaseResult, Runner, SuiteResult, format_failure, shape_problems

__all__ = [
    "CASES_DIR",
    "Case",
    "CaseError",
    "CaseResult",
    "Group",
    "Runner",
    "SuiteResult",
    "format_failure",
    "junit_xml",
    "load_groups",
    "shape_problems",
    "write_junit",
]
