// GET /v1/models and /v1/models/:model: the models this token may call, in the caller's list shape —
// OpenAI's, Anthropic's for a caller sending anthropic-version, Google's for one sending x-goog-api-key
// (each vendor's SDK lists models at this path) — with errors in that vendor's shape too.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticateRelay } from '../../auth/relay-auth.js';
import type { RelayCaller } from '../../auth/relay-auth.js';
import { RelayError } from '../../ir/errors.js';
import type { IrError } from '../../ir/errors.js';
import type { RelayRuntime } from '../../pipeline/relay-runtime.js';
import { anthropicErrorBody } from '../../wire/anthropic/index.js';
import { geminiErrorBody } from '../../wire/gemini/index.js';
import { googleModelOf, googleModelPage } from '../gemini/model-list.js';
import { anthropicModelOf, anthropicModelPage } from './anthropic-models.js';
import { modelCatalog } from './model-catalog.js';
import type { CatalogModel } from './model-catalog.js';

/** A fixed creation time (2021-07-25, as one-api reports): the relay does not know when a model was made. */
const CREATED = 1626777600;

const modelObject = (m: CatalogModel) => ({
  id: m.id,
  object: 'model' as const,
  created: CREATED,
  owned_by: m.ownedBy,
});

/** The group's models, narrowed to the token's model limits when it has them. */
export async function usableModels(rt: RelayRuntime, caller: RelayCaller): Promise<CatalogModel[]> {
  const limits = caller.token?.modelLimits;
  const models = await modelCatalog(rt).modelsOf(caller.group);
  return limits ? models.filter((m) => limits.has(m.id)) : [...models];
}

const idsOf = (models: readonly CatalogModel[]): string[] => models.map((m) => m.id);

type ListShape = 'openai' | 'anthropic' | 'google';

/** Google's SDKs send x-goog-api-key, Anthropic's anthropic-version; anything else is an OpenAI client. */
const shapeOf = (req: FastifyRequest): ListShape =>
  req.headers['x-goog-api-key'] !== undefined
    ? 'google'
    : req.headers['anthropic-version'] !== undefined
      ? 'anthropic'
      : 'openai';

const VENDOR_ERRORS: Record<Exclude<ListShape, 'openai'>, (error: IrError) => unknown> = {
  google: geminiErrorBody,
  anthropic: anthropicErrorBody,
};

export function registerModelRoutes(scope: FastifyInstance, rt: RelayRuntime): void {
  /**
   * Runs `answer` for the authenticated caller. The route's error handler speaks OpenAI; a refusal to
   * an Anthropic or Google client is answered here in its own vendor's shape.
   */
  const serve =
    (answer: (req: FastifyRequest, models: CatalogModel[], shape: ListShape) => unknown) =>
    async (req: FastifyRequest, reply: FastifyReply) => {
      const shape = shapeOf(req);
      try {
        return answer(req, await usableModels(rt, await authenticateRelay(rt, req)), shape);
      } catch (error) {
        if (shape === 'openai' || !(error instanceof RelayError)) throw error;
        const ir = error.toIr();
        return reply.code(ir.status).send(VENDOR_ERRORS[shape](ir));
      }
    };

  scope.get(
    '/v1/models',
    serve((req, models, shape) => {
      if (shape === 'google') return googleModelPage(idsOf(models), req.query);
      if (shape === 'anthropic') return anthropicModelPage(idsOf(models), req.query);
      return { object: 'list', data: models.map(modelObject) };
    }),
  );

  // A wildcard, since model names may contain slashes (Qwen/Qwen2.5-7B-Instruct).
  scope.get(
    '/v1/models/*',
    serve((req, models, shape) => {
      const id = (req.params as { '*': string })['*'];
      if (shape === 'google') return googleModelOf(idsOf(models), id);
      if (shape === 'anthropic') return anthropicModelOf(idsOf(models), id);
      const found = models.find((m) => m.id === id);
      if (!found) throw new RelayError(404, `the model '${id}' does not exist`, 'model_not_found');
      return modelObject(found);
    }),
  );
}
