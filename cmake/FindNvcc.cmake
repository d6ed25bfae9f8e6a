# FindNvcc: the CUDA toolkit's compiler driver, which cl1cc wraps.
#   Nvcc_FOUND, Nvcc_EXECUTABLE, Nvcc_TOOLKIT_ROOT, Nvcc_VERSION
# Tests and the default lookup use it; at run time cl1cc still finds nvcc on
# PATH or through CL1CC_NVCC.
find_program(Nvcc_EXECUTABLE nvcc
  HINTS ENV CUDA_PATH ENV CUDA_HOME /usr/local/cuda
  PATH_SUFFIXES bin)
if(Nvcc_EXECUTABLE)
  get_filename_component(_nvcc_bin ${Nvcc_EXECUTABLE} DIRECTORY)
  get_filename_component(Nvcc_TOOLKIT_ROOT ${_nvcc_bin} DIRECTORY)
  execute_process(COMMAND ${Nvcc_EXECUTABLE} --version OUTPUT_VARIABLE _nvcc_out ERROR_QUIET)
  string(REGEX MATCH "release ([0-9]+\\.[0-9]+)" _m "${_nvcc_out}")
  set(Nvcc_VERSION ${CMAKE_MATCH_1})
endif()
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Nvcc
  REQUIRED_VARS Nvcc_EXECUTABLE Nvcc_TOOLKIT_ROOT
  VERSION_VAR Nvcc_VERSION)
