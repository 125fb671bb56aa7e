import { defineDomain } from '../desk/domain.ts';
import { startSandboxWorker } from '../sandbox/startSandbox.ts';
import { startSandboxWorkspace } from './sandboxWorkspace.ts';
import { createWorkspaceService } from './workspaceService.ts';

/** workspaces:* channels; starts the built-in Sandbox workspace unless the desk runs with sandbox 'off'. */
export const workspacesDomain = defineDomain({
  name: 'workspaces',
  async create(ctx) {
    if (ctx.options.sandbox === 'auto') {
      const sandbox = await startSandboxWorkspace(ctx, startSandboxWorker);
      if (sandbox) ctx.onClose(() => sandbox.close());
    }
    const service = createWorkspaceService(ctx);
    return {
      'workspaces:list': () => service.list(),
      'workspaces:create': (request) => service.create(request),
      'workspaces:update': (request) => service.update(request),
      'workspaces:remove': (request) => service.remove(request),
      'workspaces:set-active': (request) => service.setActive(request),
      'workspaces:test': (request) => service.test(request),
    };
  },
});
