// electron-builder afterPack hook: flips Electron's fuses in the packaged binary, before signing.
// RunAsNode, NODE_OPTIONS and --inspect off (nobody can turn the app into a Node runtime),
// cookie encryption on, the app loaded only from an integrity-checked app.asar, and no extra
// privileges for file:// (the renderer is served from app://).
/* eslint-disable @typescript-eslint/no-require-imports -- electron-builder loads this hook as CommonJS */
const path = require('node:path');
const { flipFuses, FuseVersion, FuseV1Options } = require('@electron/fuses');

const ARM64 = 3; // electron-builder's Arch.arm64

/** @param {import('electron-builder').AfterPackContext} context */
module.exports = async function afterPack(context) {
  const { appOutDir, electronPlatformName, packager, arch } = context;
  const name = packager.appInfo.productFilename;
  const binary =
    electronPlatformName === 'darwin' || electronPlatformName === 'mas'
      ? path.join(appOutDir, `${name}.app`)
      : electronPlatformName === 'win32'
        ? path.join(appOutDir, `${name}.exe`)
        : path.join(appOutDir, packager.executableName);

  await flipFuses(binary, {
    version: FuseVersion.V1,
    strictlyRequireAllFuses: true,
    // Flipping fuses breaks the ad-hoc signature Apple Silicon requires for unsigned builds.
    resetAdHocDarwinSignature: electronPlatformName === 'darwin' && arch === ARM64,
    [FuseV1Options.RunAsNode]: false,
    [FuseV1Options.EnableCookieEncryption]: true,
    [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
    [FuseV1Options.EnableNodeCliInspectArguments]: false,
    [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
    [FuseV1Options.OnlyLoadAppFromAsar]: true,
    [FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]: false,
    [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
  });
  console.log(`afterPack: fuses flipped in ${path.basename(binary)}`);
};
