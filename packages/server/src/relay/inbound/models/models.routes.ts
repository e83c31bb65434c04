// GET /v1/models and /v1/models/:model: the models this token may call, in OpenAI's list shape.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticateRelay } from '../../auth/relay-auth.js';
import type { RelayCaller } from '../../auth/relay-auth.js';
import { RelayError } from '../../ir/errors.js';
import type { RelayRuntime } from '../../pipeline/relay-runtime.js';
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
async function usableModels(rt: RelayRuntime, caller: RelayCaller): Promise<CatalogModel[]> {
  const limits = caller.token?.modelLimits;
  const models = await modelCatalog(rt).modelsOf(caller.group);
  return limits ? models.filter((m) => limits.has(m.id)) : [...models];
}

export function registerModelRoutes(scope: FastifyInstance, rt: RelayRuntime): void {
  const onRequest = async (req: FastifyRequest) => {
    req.relayCaller = await authenticateRelay(rt, req);
  };
  const callerOf = (caller: RelayCaller | null): RelayCaller => {
    if (!caller) throw new RelayError(401, 'invalid token', 'invalid_api_key');
    return caller;
  };

  scope.get('/v1/models', { onRequest }, async (req) => {
    const models = await usableModels(rt, callerOf(req.relayCaller));
    return { object: 'list', data: models.map(modelObject) };
  });

  // A wildcard, since model names may contain slashes (Qwen/Qwen2.5-7B-Instruct).
  scope.get<{ Params: { '*': string } }>('/v1/models/*', { onRequest }, async (req) => {
    const id = req.params['*'];
    const models = await usableModels(rt, callerOf(req.relayCaller));
    const found = models.find((m) => m.id === id);
    if (!found) throw new RelayError(404, `the model '${id}' does not exist`, 'model_not_found');
    return modelObject(found);
  });
}
