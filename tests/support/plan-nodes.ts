// A plan as EXPLAIN (ANALYZE, FORMAT JSON) gives it, walked node by node, for the tests that hold a statement
// to the rows it reads rather than to its time (the skewed-table tests).

export type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows": number;
  "Actual Loops": number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Join Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
};

/** The node and every node under it. */
export function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

/** Rows the plan read from transfers: what its scans returned over all loops, plus what they filtered away. */
export function transferRowsRead(nodes: PlanNode[]): number {
  return nodes
    .filter((n) => n["Relation Name"] === "transfers")
    .reduce(
      (sum, n) =>
        sum +
        n["Actual Rows"] * n["Actual Loops"] +
        (n["Rows Removed by Filter"] ?? 0) +
        (n["Rows Removed by Index Recheck"] ?? 0),
      0,
    );
}
