/**
 * The environment the deployment files start the server process with, beside the service's own variables: set in
 * the Dockerfile (`ENV`, so Compose and Kubernetes have it from the image) and the systemd unit (`Environment=`), and
 * given by `npm run bench` to the service it measures. test/deploy-manifests.test.ts holds the files to this list.
 */
export const PROCESS_ENVIRONMENT: Readonly<Record<string, string>> = {
  /**
   * glibc's `M_MMAP_THRESHOLD` (mallopt(3)) fixed at its initial 128 KiB, which turns off its dynamic adjustment.
   * Without it, each large block freed (zlib's and brotli's compressor state, buffers of big bodies) raises the
   * threshold to its size, so later ones come from the heap and stay in the process once freed: peak and steady RSS
   * are lower with it, at the same CPU per request (bench/analysis.md). Other C libraries (musl) ignore it.
   */
  MALLOC_MMAP_THRESHOLD_: '131072',
};
