#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Checks a Kubernetes Job manifest without a cluster, against the models of
Debian's python3-kubernetes (the API's own types): every field is one the
model of its place knows, with a value of its type, and the models' required
fields are there. Then what docs/deploy.md relies on: an Indexed Job whose
pods are not restarted in place, whose container passes its index
($(JOB_COMPLETION_INDEX)) and asks for an NVIDIA GPU (nvidia.com/gpu).
Prints what is wrong; exits 1 if anything is.

    scripts/check-job.py deploy/job.yaml

(/usr/bin/python3: Debian's modules are for it, whatever python3 is first.)
"""

import json
import re
import sys

import yaml
from kubernetes import client
from kubernetes.client import models

PRIMITIVES = {"str": str, "int": int, "bool": bool, "float": (int, float),
              "object": object, "datetime": str, "date": str}

# A Kubernetes quantity: 4, 0.5, 500m, 2Gi, 1e3.
QUANTITY = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)"
                      r"([eE][+-]?[0-9]+|[numkMGTPE]|[KMGTPE]i)?")


def check(value, typ, path, errors):
    """Walks VALUE as the model type TYP (an openapi_types string)."""
    m = re.fullmatch(r"list\[(.+)\]", typ)
    if m:
        if not isinstance(value, list):
            errors.append("%s: a list expected" % path)
            return
        for i, item in enumerate(value):
            check(item, m.group(1), "%s[%d]" % (path, i), errors)
        return
    m = re.fullmatch(r"dict\(str, (.+)\)", typ)
    if m:
        if not isinstance(value, dict):
            errors.append("%s: a mapping expected" % path)
            return
        for key, item in value.items():
            check(item, m.group(1), "%s.%s" % (path, key), errors)
        return
    if typ in PRIMITIVES:
        if not isinstance(value, PRIMITIVES[typ]) or (
                typ == "int" and isinstance(value, bool)):
            errors.append("%s: %r is not of type %s" % (path, value, typ))
        return
    if typ == "V1ResourceRequirements" and isinstance(value, dict):
        # Quantities: the model keeps them as strings, the API server takes
        # numbers too ("nvidia.com/gpu: 1").
        for kind, amounts in value.items():
            for name, amount in (amounts or {}).items():
                if not QUANTITY.fullmatch(str(amount)) or isinstance(amount, bool):
                    errors.append("%s.%s.%s: %r is not a quantity"
                                  % (path, kind, name, amount))
    model = getattr(models, typ)
    if not isinstance(value, dict):
        errors.append("%s: a mapping expected (%s)" % (path, typ))
        return
    fields = {json_name: name for name, json_name in model.attribute_map.items()}
    for key, item in value.items():
        if key not in fields:
            errors.append("%s: %s has no field %r" % (path, typ, key))
        else:
            if typ != "V1ResourceRequirements" or key not in ("limits", "requests"):
                check(item, model.openapi_types[fields[key]],
                      "%s.%s" % (path, key), errors)


class Response:
    """What ApiClient.deserialize reads: the manifest as a JSON body."""
    def __init__(self, doc):
        self.data = json.dumps(doc)


def check_job(doc, errors):
    """What an Indexed Job over a backlog needs, beyond the schema."""
    spec = doc.get("spec", {})
    if spec.get("completionMode") != "Indexed":
        errors.append("spec.completionMode: not Indexed")
    pod = spec.get("template", {}).get("spec", {})
    if pod.get("restartPolicy") != "Never":
        errors.append("spec.template.spec.restartPolicy: not Never (a failed "
                      "pod would restart in place and count no failure)")
    for c in pod.get("containers", []):
        words = c.get("command", []) + c.get("args", [])
        if not any("$(JOB_COMPLETION_INDEX)" in w for w in words):
            errors.append("container %s: its command does not pass "
                          "$(JOB_COMPLETION_INDEX)" % c.get("name"))
        if "nvidia.com/gpu" not in c.get("resources", {}).get("limits", {}):
            errors.append("container %s: no nvidia.com/gpu limit"
                          % c.get("name"))


def main(path):
    errors = []
    docs = [d for d in yaml.safe_load_all(open(path)) if d is not None]
    for doc in docs:
        kind = doc.get("kind", "?")
        group_version = doc.get("apiVersion", "?").split("/")[-1]
        typ = "V1%s" % kind if group_version == "v1" else None
        if typ is None or not hasattr(models, typ):
            errors.append("%s %s: no model for it" % (doc.get("apiVersion"), kind))
            continue
        check(doc, typ, kind, errors)
        try:
            # The models' own checks: required fields, allowed values.
            client.ApiClient().deserialize(Response(doc), typ)
        except (ValueError, TypeError) as e:
            errors.append("%s: %s" % (kind, e))
        if kind == "Job":
            check_job(doc, errors)
    if not any(d.get("kind") == "Job" for d in docs):
        errors.append("no Job in %s" % path)
    for e in errors:
        print("%s: %s" % (path, e))
    if not errors:
        print("%s: %d object(s), every field known to python3-kubernetes %s"
              % (path, len(docs), client.__version__))
    return 1 if errors else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
