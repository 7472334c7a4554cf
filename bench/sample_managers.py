"""Gives the bundled sample (Resources/people.json) a reporting structure.

    roster-gen --people 400 --seed 1 > plain.json
    python3 bench/sample_managers.py plain.json > Resources/people.json

(`make data` runs both.) Each company gets one head, who has no manager:
its oldest person (the lowest index among equals). A company of up to
eight people is the head and their reports; a larger one has a few middle
managers (the next oldest; about one per eight people, two to seven), who
report to the head and share the rest between them in the file's order:
three levels at most. People with no company have no manager.

Each manager is named by their `_id`, the form the loader resolves first.
The "manager" line goes after a record's last field, as `roster-gen
--managers` writes it; every other byte stays as roster-gen wrote it, and
the script checks that before it writes anything. The same input always
gives the same output.
"""
import json
import re
import sys

FLAT_UP_TO = 8


def middle_manager_count(size):
    """How many middle managers a company of `size` people has."""
    if size <= FLAT_UP_TO:
        return 0
    return max(2, min(7, round((size - 1) / 8)))


def managers(records):
    """Each record's manager's _id (None for a head or no company), by position."""
    by_company = {}
    for position, record in enumerate(records):
        if record.get("company"):
            by_company.setdefault(record["company"], []).append(position)
    chosen = [None] * len(records)
    for members in by_company.values():
        senior_first = sorted(members, key=lambda position: (-records[position]["age"], position))
        head, rest = senior_first[0], senior_first[1:]
        middle = rest[:middle_manager_count(len(members))]
        for manager in middle:
            chosen[manager] = records[head]["_id"]
        staff = sorted(set(rest) - set(middle))
        for turn, person in enumerate(staff):
            chosen[person] = records[middle[turn % len(middle)] if middle else head]["_id"]
    return chosen


# A record's last line, as roster-gen writes it: the fruit, then the brace.
RECORD_END = re.compile(r'("favoriteFruit": "[^"]*")(\n })')


def with_managers(text):
    records = json.loads(text)
    chosen = managers(records)
    ends = list(RECORD_END.finditer(text))
    if len(ends) != len(records):
        sys.exit(f"sample_managers: found {len(ends)} record ends for {len(records)} records; not roster-gen's shape")
    pieces, start = [], 0
    for end, manager in zip(ends, chosen):
        pieces.append(text[start:end.end(1)])
        if manager is not None:
            pieces.append(f',\n  "manager": "{manager}"')
        start = end.end(1)
    pieces.append(text[start:])
    result = "".join(pieces)
    check(text, result, records, chosen)
    return result


def check(text, result, records, chosen):
    """The result is the input plus the manager lines, and nothing else."""
    if re.sub(r',\n  "manager": "[0-9a-f]+"', "", result) != text:
        sys.exit("sample_managers: the result differs from the input in more than the manager lines")
    for record, manager in zip(records, chosen):
        if manager is not None:
            record["manager"] = manager
    if json.loads(result) != records:
        sys.exit("sample_managers: the result does not read back as the input with managers")


def main():
    source = open(sys.argv[1], encoding="utf-8") if len(sys.argv) > 1 else sys.stdin
    with source:
        text = source.read()
    sys.stdout.write(with_managers(text))


if __name__ == "__main__":
    main()
