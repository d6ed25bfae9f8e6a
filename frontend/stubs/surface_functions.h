/* cl1cc stand-in: CUDA 13 removed this header (surface references).  Empty
 * on purpose; used only for parsing. */
