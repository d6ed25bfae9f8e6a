/* cl1cc stand-in: CUDA 13 removed this header, which clang 16's CUDA
 * wrapper still includes.  Empty on purpose; used only for parsing. */
