// Renderer features stay apart: a file of renderer/src/features/<a>/ imports no other feature's
// folder, and the modules features share (components/, shared-<what>/) import no feature at all,
// so nothing becomes a back door. What two features need goes to components/ (generic pieces) or to
// a renderer/src/shared-<what>/ folder named for what it shares. app/ composes the features.
import path from 'node:path';

const SRC = path.join('renderer', 'src');

/** 'features/<name>', 'shared' (components/ or shared-*), or null for any other renderer file. */
function placeOf(relative) {
  const parts = relative.split(path.sep);
  if (parts.slice(0, 2).join(path.sep) !== SRC) return null;
  if (parts[2] === 'features' && parts.length >= 4) return `features/${parts[3]}`;
  if (parts[2] === 'components' || parts[2]?.startsWith('shared-')) return 'shared';
  return null;
}

export const noCrossFeatureImports = {
  meta: {
    type: 'problem',
    docs: {
      description: 'No imports between renderer features except through components/ or shared-<what>/.',
    },
    messages: {
      crossFeature:
        '{{from}} imports {{to}}: features import each other only through components/ or a renderer/src/shared-<what>/ module named for what it shares.',
      sharedIntoFeature:
        '{{from}} is shared by the features, so it imports no feature ({{to}}): move what it needs out of the feature.',
    },
    schema: [],
  },
  create(context) {
    const file = path.relative(context.cwd, context.filename);
    const from = placeOf(file);
    if (!from) return {};
    const check = (node) => {
      const source = node.source;
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      if (!source.value.startsWith('.')) return;
      const target = path.relative(context.cwd, path.resolve(path.dirname(context.filename), source.value));
      const to = placeOf(target);
      if (!to?.startsWith('features/') || to === from) return;
      const shown = from === 'shared' ? file.split(path.sep).slice(2, 3).join('/') + '/' : from;
      context.report({
        node: source,
        messageId: from === 'shared' ? 'sharedIntoFeature' : 'crossFeature',
        data: { from: shown, to },
      });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export const rendererFeaturesPlugin = { rules: { 'no-cross-feature-imports': noCrossFeatureImports } };
