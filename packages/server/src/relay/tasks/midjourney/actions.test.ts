// What a midjourney-proxy call is priced as: each action's model, the action a button's customId or a
// simple change stands for, and the speed flags MjModeClearEnabled takes out of a prompt.
import { describe, expect, it } from 'vitest';
import { channelTypeModels } from '@sluice/shared';
import {
  MJ_ACTIONS,
  actionOfCustomId,
  clearModeFlags,
  modelOfAction,
  modelOfStoredAction,
  parseSimpleChange,
} from './actions.js';

describe('Midjourney actions', () => {
  it('are each priced as a model a Midjourney Proxy Plus channel lists', () => {
    const plus = new Set(channelTypeModels(5));
    expect(MJ_ACTIONS.map(modelOfAction).filter((m) => !plus.has(m))).toEqual([]);
    expect(modelOfAction('UPLOAD')).toBe('mj_uploads');
    expect(modelOfAction('SWAP_FACE')).toBe('swap_face');
    expect(modelOfAction('CUSTOM_ZOOM')).toBe('mj_custom_zoom');
    // A row imported from new-api with an action Sluice has no entry for.
    expect(modelOfStoredAction('VIDEO')).toBe('mj_video');
  });

  it('read a button’s customId as new-api reads it', () => {
    const cases: Array<[string, string | undefined]> = [
      ['MJ::JOB::upsample::2::3dbbd469-36af-4a0f-8f02-df6c579e7011', 'UPSCALE'],
      ['MJ::JOB::upsample_v6_2x_subtle::1::hash::SOLO', 'UPSCALE'],
      ['MJ::JOB::variation::3::hash', 'VARIATION'],
      ['MJ::JOB::low_variation::1::hash::SOLO', 'LOW_VARIATION'],
      ['MJ::JOB::high_variation::1::hash::SOLO', 'HIGH_VARIATION'],
      ['MJ::JOB::pan_left::1::hash::SOLO', 'PAN'],
      ['MJ::JOB::reroll::0::hash::SOLO', 'REROLL'],
      ['MJ::Outpaint::50::1::hash::SOLO', 'ZOOM'],
      ['MJ::CustomZoom::hash', 'CUSTOM_ZOOM'],
      ['MJ::Inpaint::1::hash::SOLO', 'INPAINT'],
      ['MJ::JOB::strange_variation::1::hash', undefined],
      ['MJ::BOOKMARK::hash', undefined],
      ['upsample::1', undefined],
      ['MJ', undefined],
    ];
    for (const [customId, action] of cases)
      expect([customId, actionOfCustomId(customId)]).toEqual([customId, action]);
  });

  it('read a simple change: U1–U4, V1–V4 or R after the task id', () => {
    expect(parseSimpleChange('1320098173412546 U2')).toEqual({
      taskId: '1320098173412546',
      action: 'UPSCALE',
      label: 'U2',
    });
    expect(parseSimpleChange('1320098173412546 v4')).toEqual({
      taskId: '1320098173412546',
      action: 'VARIATION',
      label: 'V4',
    });
    expect(parseSimpleChange(' 42 r ')).toEqual({ taskId: '42', action: 'REROLL', label: 'R' });
    for (const bad of ['42 U5', '42 U0', '42', '42 X1', '42 U1 V1', 'U1'])
      expect(parseSimpleChange(bad)).toBeUndefined();
  });

  it('take the speed flags out of a prompt, and nothing else', () => {
    expect(clearModeFlags('a cat --fast --ar 16:9 --relax --turbo')).toBe('a cat  --ar 16:9  ');
    expect(clearModeFlags('a cat --fastest --v 6')).toBe('a cat --fastest --v 6');
  });
});
