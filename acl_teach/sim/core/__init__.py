"""Shared machinery of every namespace: the table-driven argument parser (``args``), the simulated process
(``state``), the resource ledger, process memory accounting, the timeline and the cost model."""
