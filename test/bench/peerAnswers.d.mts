// Types for peerAnswers.mjs, so its unit test type-checks.
export interface ToolResult {
  content?: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}
export interface PeerAnswer {
  references: number;
  ready: boolean;
}
export function resultText(result: ToolResult): string;
export function oursReferences(result: ToolResult): PeerAnswer;
export function originalReferences(result: ToolResult): PeerAnswer;
export function serenaReferences(result: ToolResult): PeerAnswer;
export function cclspReferences(result: ToolResult, symbol: string): PeerAnswer & { others: number };
export function lsmcpReferences(result: ToolResult): PeerAnswer;
export function completeness(references: number, truth: number, includesDeclaration: boolean): { expected: number; complete: boolean };
export function symbolAt(pattern: string): string;
