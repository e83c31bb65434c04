// Anthropic's model names → Bedrock model ids, so a type-33 channel serves `claude-…` names without a
// model_mapping. Ids as AWS and Anthropic list them ("Supported foundation models in Amazon Bedrock";
// Claude docs, "Model IDs and versions"): dated models are anthropic.<name>-v<N>:0; from the 4.6
// generation on, ids carry no date. Any other name goes as it is: a Bedrock model id
// (anthropic.…), a cross-region inference profile (us. / eu. / apac. / jp. / au. / global. + id,
// which newer models need for on-demand calls: set it with the channel's model_mapping) or an ARN.

const BEDROCK_MODEL_IDS: ReadonlyMap<string, string> = new Map([
  ['claude-3-haiku-20240307', 'anthropic.claude-3-haiku-20240307-v1:0'],
  ['claude-3-sonnet-20240229', 'anthropic.claude-3-sonnet-20240229-v1:0'],
  ['claude-3-opus-20240229', 'anthropic.claude-3-opus-20240229-v1:0'],
  ['claude-3-5-sonnet-20240620', 'anthropic.claude-3-5-sonnet-20240620-v1:0'],
  ['claude-3-5-sonnet-20241022', 'anthropic.claude-3-5-sonnet-20241022-v2:0'],
  ['claude-3-5-haiku-20241022', 'anthropic.claude-3-5-haiku-20241022-v1:0'],
  ['claude-3-7-sonnet-20250219', 'anthropic.claude-3-7-sonnet-20250219-v1:0'],
  ['claude-sonnet-4-20250514', 'anthropic.claude-sonnet-4-20250514-v1:0'],
  ['claude-opus-4-20250514', 'anthropic.claude-opus-4-20250514-v1:0'],
  ['claude-opus-4-1-20250805', 'anthropic.claude-opus-4-1-20250805-v1:0'],
  ['claude-sonnet-4-5-20250929', 'anthropic.claude-sonnet-4-5-20250929-v1:0'],
  ['claude-haiku-4-5-20251001', 'anthropic.claude-haiku-4-5-20251001-v1:0'],
  ['claude-opus-4-5-20251101', 'anthropic.claude-opus-4-5-20251101-v1:0'],
  ['claude-opus-4-6', 'anthropic.claude-opus-4-6-v1'],
  ['claude-sonnet-4-6', 'anthropic.claude-sonnet-4-6'],
]);

/** The model id a Bedrock call names in its URL. */
export const bedrockModelId = (model: string): string => BEDROCK_MODEL_IDS.get(model) ?? model;

const ANTHROPIC_NAMES: ReadonlyMap<string, string> = new Map(
  [...BEDROCK_MODEL_IDS].map(([name, id]) => [id, name]),
);

/** The Anthropic name of a Bedrock model id the built-in map knows (the inverse of bedrockModelId). */
export const anthropicModelName = (modelId: string): string | undefined => ANTHROPIC_NAMES.get(modelId);
