"""JUnit XML for a conformance run (one testsuite per group)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from pcfserver.conformance.runner import SuiteResult


def junit_xml(suite: SuiteResult, name: str = "pcfserver-conformance") -> ET.ElementTree[ET.Element]:
    root = ET.Element("testsuites", name=name, tests=str(len(suite.results)), failures=str(suite.failed))
    groups: dict[str, ET.Element] = {}
    for result in suite.results:
        group = result.case.group
        if group not in groups:
            groups[group] = ET.SubElement(root, "testsuite", name=group, tests="0", failures="0")
        element = groups[group]
        element.set("tests", str(int(element.get("tests", "0")) + 1))
        case = ET.SubElement(element, "testcase", classname=f"conformance.{group}", name=result.case.name, time=f"{result.seconds:.3f}")
        ET.SubElement(case, "properties").append(ET.Element("property", name="doc", value=result.case.doc))
        if not result.passed:
            element.set("failures", str(int(element.get("failures", "0")) + 1))
            failure = ET.SubElement(case, "failure", message=result.failures[0])
            failure.text = "\n".join(result.failures)
    return ET.ElementTree(root)


def write_junit(suite: SuiteResult, path: Path) -> None:
    tree = junit_xml(suite)
    ET.indent(tree)
    tree.write(path, encoding="utf-8", xml_declaration=True)
