// Types of scripts/capabilityGraph.mjs for the TypeScript that imports it (its unit test).
export interface Edge {
  from: string;
  to: string;
  /** One import that makes the edge: `src/a.ts -> src/b.ts`. */
  example: string;
}
/** The folder a source file stands for: `src/chat/session/core/x.ts` -> `chat/session`. */
export declare function nodeOf(file: string): string;
export declare const featureOf: (node: string) => string;
export declare function edgesOf(root: string): Edge[];
export declare function featureEdges(edges: Edge[]): Edge[];
export declare function cyclesOf(edges: Edge[]): { members: string[]; cycle: string[] }[];
export declare function graphText(edges: Edge[]): string;
/** Cycles between folders and between features, and a stale copy in docs/ARCHITECTURE.md. */
export declare function graphProblems(root: string, o?: { checkDoc?: boolean }): string[];
