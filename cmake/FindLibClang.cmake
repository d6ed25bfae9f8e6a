# FindLibClang: the libclang C API of one LLVM major version.
#   LibClang_FOUND, LibClang_INCLUDE_DIR, LibClang_LIBRARY, LibClang_RESOURCE_DIR
#   imported target LibClang::LibClang
# Debian installs version N under /usr/lib/llvm-N; the default libclang 14
# cannot parse CUDA 13 headers, so the version is required, not preferred.
set(_lc_version ${LibClang_FIND_VERSION_MAJOR})
if(NOT _lc_version)
  set(_lc_version 19)
endif()
set(_lc_roots /usr/lib/llvm-${_lc_version} /usr/local/opt/llvm@${_lc_version} ${LIBCLANG_ROOT})
find_path(LibClang_INCLUDE_DIR clang-c/Index.h
  PATHS ${_lc_roots} PATH_SUFFIXES include NO_DEFAULT_PATH)
find_library(LibClang_LIBRARY NAMES clang-${_lc_version} clang libclang
  PATHS ${_lc_roots} PATH_SUFFIXES lib NO_DEFAULT_PATH)
foreach(_root ${_lc_roots})
  if(EXISTS ${_root}/lib/clang/${_lc_version}/include/__clang_cuda_runtime_wrapper.h)
    set(LibClang_RESOURCE_DIR ${_root}/lib/clang/${_lc_version} CACHE PATH "clang resource directory")
    break()
  endif()
endforeach()
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(LibClang
  REQUIRED_VARS LibClang_LIBRARY LibClang_INCLUDE_DIR LibClang_RESOURCE_DIR
  REASON_FAILURE_MESSAGE "install libclang-${_lc_version}-dev (Debian) for the CUDA-capable libclang")
if(LibClang_FOUND)
  get_filename_component(LibClang_LIBRARY_DIR ${LibClang_LIBRARY} DIRECTORY)
endif()
if(LibClang_FOUND AND NOT TARGET LibClang::LibClang)
  add_library(LibClang::LibClang UNKNOWN IMPORTED)
  set_target_properties(LibClang::LibClang PROPERTIES
    IMPORTED_LOCATION ${LibClang_LIBRARY}
    INTERFACE_INCLUDE_DIRECTORIES ${LibClang_INCLUDE_DIR})
endif()
