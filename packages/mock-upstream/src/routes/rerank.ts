// POST /v1/rerank in the Jina/Cohere shape: results by relevance with index and relevance_score.
import { sendError, sendJson, type Exchange } from '../exchange.js';
import { expectedRerankUsage, rerankDocuments, words } from '../usage.js';
import { isRecord } from './input.js';

/** Share of the query's distinct words (case-insensitive) that the document contains. */
export function mockRelevance(query: string, document: string): number {
  const wanted = new Set(words(query).map((w) => w.toLowerCase()));
  if (wanted.size === 0) return 0;
  const present = new Set(words(document).map((w) => w.toLowerCase()));
  let hits = 0;
  for (const word of wanted) if (present.has(word)) hits++;
  return hits / wanted.size;
}

export function handleRerank(ex: Exchange): void {
  const body = ex.body;
  if (!isRecord(body) || typeof body.query !== 'string' || !Array.isArray(body.documents)) {
    sendError(ex, 400, "'query' (a string) and 'documents' (an array) are required.");
    return;
  }
  const query = body.query;
  const documents = rerankDocuments(body.documents);
  const ranked = documents
    .map((text, index) => ({ index, text, relevance_score: mockRelevance(query, text) }))
    .sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index);
  const topN = typeof body.top_n === 'number' && body.top_n > 0 ? body.top_n : ranked.length;
  const withDocuments = body.return_documents !== false;
  sendJson(ex, 200, {
    id: `rerank-mock${ex.seq}`,
    model: typeof body.model === 'string' ? body.model : '',
    results: ranked.slice(0, topN).map(({ index, text, relevance_score }) => ({
      index,
      relevance_score,
      ...(withDocuments ? { document: { text } } : {}),
    })),
    usage: expectedRerankUsage(body),
  });
}
