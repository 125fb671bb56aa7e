export * from './result.ts';
export * from './contract.ts';
export * from './define.ts';
export * from './channels/app.ts';
export * from './channels/workspaces.ts';
export * from './channels/contacts.ts';
export * from './channels/agents.ts';
export * from './wire.ts';
