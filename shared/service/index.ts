// Wire schemas of the calling service (seed spec + notes). Sending sides use the strict request
// schemas; reading sides use the tolerant response schemas, which accept every documented variant.
export * from './errors.ts';
export * from './common.ts';
export * from './enums.ts';
export * from './callConfig.ts';
export * from './smartFormatter.ts';
export * from './history.ts';
export * from './upload.ts';
export * from './campaign.ts';
export * from './individualCall.ts';
export * from './agent.ts';
export * from './callDetails.ts';
export * from './workspace.ts';
export * from './webhooks.ts';
export * from './normalize.ts';
